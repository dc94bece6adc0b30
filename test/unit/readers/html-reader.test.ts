import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_HTML_NESTING } from "../../../src/readers/html/html-parse.js";
import { htmlReader } from "../../../src/readers/html/html-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { goldenInput } from "../../support/golden.js";
import { expectWellFormed } from "../../support/invariants.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";

const FIXTURE = goldenInput("readers", "page.html");

async function read(source: string | Uint8Array): Promise<ReadOutput> {
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  const out = await htmlReader.read({ path: "docs/page.html", contentType: "text/html", bytes });
  expectWellFormed(out);
  expectLocations(out, LOCATION_KEYS.lines);
  return out;
}

const texts = (out: ReadOutput): string[] => out.cells.map((c) => c.text);
const cellIndex = (out: ReadOutput, text: string): number => out.cells.findIndex((c) => c.text === text);
/** 1-based line of the first line of `source` containing `needle`. */
const lineOf = (source: string, needle: string): number => source.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("htmlReader.accepts", () => {
  it.each([
    ["site/index.html", "", true],
    ["site/old.HTM", "application/octet-stream", true],
    ["page", "text/html; charset=utf-8", true],
    ["book.xhtml", "", true],
    ["notes.md", "text/markdown", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(htmlReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("htmlReader on a full page", () => {
  const source = readFileSync(FIXTURE, "utf8");

  it("reads only the main content: no scripts, styles, navigation, page chrome, forms or hidden text", async () => {
    const all = texts(await read(readFileSync(FIXTURE))).join("\n");
    for (const absent of ["analytics", "font-family", "Docs", "Blog", "On this page", "hidden", "So is this one", "Subscribe", "Email", "Enable JavaScript", "Privacy", "Operations Guide</title>"]) {
      expect(all).not.toContain(absent);
    }
    expect(all).toContain("Orbit keeps hot responses in memory & on disk.");
  });

  it("threads headings: each section's cells are children of its heading cell", async () => {
    const out = await read(readFileSync(FIXTURE));
    const parentOf = (text: string) => out.cells[cellIndex(out, text)]?.parent;
    const top = cellIndex(out, "Operations Guide");
    expect(parentOf("Operations Guide")).toBeUndefined();
    expect(parentOf("It was written by Dr. Ada Byron in 2019.")).toBe(top);
    expect(parentOf("Install")).toBe(top);
    expect(parentOf("Download the orbit binary.")).toBe(cellIndex(out, "Install"));
    expect(parentOf("Setting: ttl; Default: 300 s; Note: per entry")).toBe(cellIndex(out, "Tuning"));
    expect(parentOf("Least recently used entries go first.")).toBe(cellIndex(out, "Eviction"));
    const eviction = out.factions.find((f) => f.text === "<p>Least recently used entries go first.</p>");
    expect(eviction?.headingPath).toEqual(["Operations Guide", "Tuning", "Eviction"]);
  });

  it("gives every block the source lines it spans", async () => {
    const out = await read(readFileSync(FIXTURE));
    const byType = (type: string) => out.factions.filter((f) => f.factionType === type);
    expect(byType("heading")[0]?.location).toEqual({ lineStart: lineOf(source, "<h1>"), lineEnd: lineOf(source, "<h1>") });
    expect(byType("table")[0]?.location).toEqual({ lineStart: lineOf(source, "<table>"), lineEnd: lineOf(source, "</table>") });
    expect(byType("list")[0]?.location).toEqual({ lineStart: lineOf(source, "<ol>"), lineEnd: lineOf(source, "</ol>") });
    expect(byType("text")[0]?.location).toEqual({ lineStart: lineOf(source, "<p>Orbit keeps"), lineEnd: lineOf(source, "Dr. Ada Byron") });
  });

  it("makes lists, tables and preformatted text cells of their own kind", async () => {
    const out = await read(readFileSync(FIXTURE));
    expect(texts(out)).toEqual(expect.arrayContaining([
      "Run it:", "as a service", "or in a container",
      "Default limits", "Setting: max_entries; Default: 10000",
      "Warm start: Entries are reloaded from disk.",
      "orbit serve --port 8080\norbit status",
    ]));
    const code = out.factions.find((f) => f.factionType === "code_block");
    expect(code?.inferredType).toBe("text/x-shellscript");
  });

  it("keeps a licence notice as a faction but cuts no cells from it", async () => {
    const out = await read(readFileSync(FIXTURE));
    const notice = out.factions.findIndex((f) => f.text.includes("Licensed under the Apache License"));
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(out.cells.some((c) => c.faction === notice)).toBe(false);
  });
});

describe("htmlReader on fragments and edge cases", () => {
  it("reads nothing from an empty page", async () => {
    expect(await read("")).toEqual({ factions: [], cells: [] });
    expect(await read("<html><head><title>x</title><script>1</script></head><body>\n</body></html>")).toEqual({ factions: [], cells: [] });
  });

  it("prefers <main>, then a lone <article>, then <body>", async () => {
    const withArticle = await read("<body><div>Site banner text.</div><article><h1>Post</h1><p>Body text.</p></article></body>");
    expect(texts(withArticle)).toEqual(["Post", "Body text."]);
    const twoArticles = await read("<body><article><p>One.</p></article><article><p>Two.</p></article></body>");
    expect(texts(twoArticles)).toEqual(["One.", "Two."]);
    const hiddenMain = await read('<body><main hidden><p>Old.</p></main><p>Shown.</p></body>');
    expect(texts(hiddenMain)).toEqual(["Shown."]);
  });

  it("keeps the header and footer of an article, drops those of the page", async () => {
    const out = await read("<body><header><p>Site name.</p></header><main><article><header><h1>Title</h1></header><p>Text.</p><footer><p>Posted in May.</p></footer></article></main><footer><p>Site footer.</p></footer></body>");
    expect(texts(out)).toEqual(["Title", "Text.", "Posted in May."]);
  });

  it("decodes entities and collapses whitespace", async () => {
    const out = await read("<p>Caf&eacute; &lt;b&gt; &#x263A;   and\n\t&nbsp;more&hellip;</p>");
    expect(texts(out)).toEqual(["Café <b> ☺ and more…"]);
  });

  it("ends implicitly closed paragraphs and items at their own text", async () => {
    const out = await read("<body>\n<p>First.\n<p>Second.\n<ul>\n<li>a\n<li>b\n</ul>\n</body>");
    expect(out.factions.map((f) => [f.factionType, f.location.lineStart, f.location.lineEnd])).toEqual([
      ["text", 2, 2],
      ["text", 3, 3],
      ["list", 4, 7],
    ]);
    expect(texts(out)).toEqual(["First.", "Second.", "a", "b"]);
  });

  it("reads loose text between blocks as a paragraph", async () => {
    const out = await read("<div>Intro <b>bold</b> words.<p>Para.</p>Tail text.</div>");
    expect(texts(out)).toEqual(["Intro bold words.", "Para.", "Tail text."]);
  });

  it("labels rows of a table without column headers by their leading <th>", async () => {
    const out = await read("<table><tr><th>Name</th><td>Orbit</td></tr><tr><th>Licence</th><td>MIT</td><td>(since 2.0)</td></tr><tr><td>plain</td><td>row</td></tr></table>");
    expect(texts(out)).toEqual(["Name: Orbit", "Licence: MIT; (since 2.0)", "plain; row"]);
  });

  it("spreads a spanning header over its columns", async () => {
    const out = await read('<table><thead><tr><th>Name</th><th colspan="2">Ports</th></tr></thead><tr><td>api</td><td>80</td><td>443</td></tr></table>');
    expect(texts(out)).toEqual(["Name: api; Ports: 80; Ports: 443"]);
  });

  it("walks through layout tables instead of reading them as data", async () => {
    const out = await read("<table><tr><td><h2>Left</h2><p>Left text.</p></td><td><h2>Right</h2><p>Right text.</p></td></tr></table>");
    expect(out.factions.map((f) => f.factionType)).toEqual(["heading", "text", "heading", "text"]);
    expect(out.cells[3]?.parent).toBe(2);
  });

  it("reads markup nested up to the cap", async () => {
    const depth = MAX_HTML_NESTING - 1;
    const out = await read(`${"<div>".repeat(depth)}<p>Deep.</p>${"</div>".repeat(depth)}${"<span>".repeat(depth)}x`);
    expect(texts(out).join(" ")).toContain("Deep.");
  });

  it("refuses markup nested past the cap while parsing", async () => {
    const tooDeep = `document nests deeper than ${MAX_HTML_NESTING} levels`;
    await expect(read(`${"<div>".repeat(5_000)}<p>Deep.</p>${"</div>".repeat(5_000)}`)).rejects.toThrow(tooDeep);
    await expect(read(`<p>x</p>${"<span>".repeat(20_000)}x`)).rejects.toThrow(tooDeep);
  });

  it("drops the permalinks that site generators put in headings", async () => {
    const out = await read('<h2 id="usage">Usage<a class="headerlink" href="#usage">¶</a></h2><h3>API <a class="hash-link" href="#api">#</a></h3>');
    expect(texts(out)).toEqual(["Usage", "API"]);
  });

  it("keeps list items hidden from view out", async () => {
    const out = await read('<ul><li>shown</li><li aria-hidden="true">decoration</li><li style="visibility: hidden">ghost</li></ul>');
    expect(texts(out)).toEqual(["shown"]);
  });
});
