import { describe, expect, it } from "vitest";
import { CODE_CELL_MAX_CHARS, CODE_CELL_MAX_LINES } from "../../../src/readers/markdown/markdown-cells.js";
import { MAX_MARKDOWN_NESTING } from "../../../src/readers/markdown/markdown-nesting.js";
import { markdownReader } from "../../../src/readers/markdown/markdown-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { MAX_CELL_CHARS } from "../../../src/readers/common/sentences.js";
import { expectWellFormed } from "../../support/invariants.js";

async function read(source: string | Uint8Array): Promise<ReadOutput> {
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  const out = await markdownReader.read({ path: "docs/a.md", contentType: "text/markdown", bytes });
  expectWellFormed(out);
  return out;
}

const texts = (out: ReadOutput): string[] => out.cells.map((c) => c.text);

describe("markdownReader.accepts", () => {
  it.each([
    ["README.md", "text/plain", true],
    ["docs/Guide.MARKDOWN", "", true],
    ["notes", "text/markdown; charset=utf-8", true],
    ["notes.txt", "text/plain", false],
    ["src/a.ts", "text/x-typescript", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(markdownReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("markdownReader.read", () => {
  it("reads nothing from an empty or blank file", async () => {
    expect(await read("")).toEqual({ factions: [], cells: [] });
    expect(await read("\n\n  \n")).toEqual({ factions: [], cells: [] });
  });

  it("keeps line numbers of the original file with CRLF, lone CR and a BOM", async () => {
    const source = "\uFEFF# Title\r\n\r\nLine one.\r\nLine two.\r\n\r\n\r\n- a\r- b\r\n\r\n```\r\ncode\r\n```\r\n";
    const out = await read(source);
    expect(out.factions.map((f) => [f.factionType, f.location.lineStart, f.location.lineEnd])).toEqual([
      ["heading", 1, 1],
      ["text", 3, 4],
      ["list", 7, 8],
      ["code_block", 10, 12],
    ]);
    expect(out.factions[0]?.text).toBe("# Title");
    expect(out.factions[1]?.text).toBe("Line one.\nLine two.");
    expect(texts(out)).toEqual(["Title", "Line one.", "Line two.", "a", "b", "code"]);
  });

  it("nests headings and gives every cell its section's heading cell", async () => {
    const out = await read("# A\n\nIntro.\n\n## B\n\n### C\n\nDeep.\n\n## D\n\nLast.\n");
    const byText = new Map(out.cells.map((c, i) => [c.text, { ...c, i }]));
    const cellOf = (t: string) => byText.get(t)?.i;
    expect(byText.get("A")?.parent).toBeUndefined();
    expect(byText.get("Intro.")?.parent).toBe(cellOf("A"));
    expect(byText.get("B")?.parent).toBe(cellOf("A"));
    expect(byText.get("C")?.parent).toBe(cellOf("B"));
    expect(byText.get("Deep.")?.parent).toBe(cellOf("C"));
    expect(byText.get("D")?.parent).toBe(cellOf("A"));
    expect(byText.get("Last.")?.parent).toBe(cellOf("D"));
    expect(out.factions.at(-1)?.headingPath).toEqual(["A", "D"]);
    expect(out.factions[2]?.headingPath).toEqual(["A"]);
  });

  it("strips inline markup but keeps link text, inline code and alt text", async () => {
    const out = await read("Use **bold**, _em_, `npm test`, [the docs](http://x.y) and ![a chart](c.png) <kbd>here</kbd>.\n");
    expect(texts(out)).toEqual(["Use bold, em, npm test, the docs and a chart here ."]);
  });

  it("makes each list item a cell, nested items included, and keeps task state", async () => {
    const out = await read("- one\n  continued\n  - nested *a*\n  - nested b\n- [x] done\n- [ ] open\n\n  second paragraph\n");
    expect(out.factions).toHaveLength(1);
    expect(out.factions[0]?.factionType).toBe("list");
    expect(texts(out)).toEqual(["one continued", "nested a", "nested b", "[x] done", "[ ] open second paragraph"]);
  });

  it("renders table rows as header: value pairs", async () => {
    const out = await read("| Name | Port | Note |\n|---|--:|---|\n| api | 80 | |\n| db | 5432 | `primary` |\n");
    expect(out.factions[0]?.factionType).toBe("table");
    expect(texts(out)).toEqual(["Name: api; Port: 80", "Name: db; Port: 5432; Note: primary"]);
  });

  it("cuts a code block's cell to its first lines and types it by language", async () => {
    const body = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
    const out = await read(`\`\`\`ts\n\n${body}\n\`\`\`\n\n\`\`\`\n${"z".repeat(5_000)}\n\`\`\`\n\n\`\`\`\n\`\`\`\n`);
    expect(out.factions.map((f) => f.inferredType)).toEqual(["text/x-typescript", "text/plain", "text/plain"]);
    expect(out.cells[0]?.text).toBe(body.split("\n").slice(0, CODE_CELL_MAX_LINES).join("\n"));
    expect(out.cells[1]?.text).toHaveLength(CODE_CELL_MAX_CHARS);
    expect(out.cells).toHaveLength(2);
    expect(out.factions[0]?.text).toContain("line 39");
  });

  it("reads YAML front matter as a config faction with a cell per key", async () => {
    const out = await read("---\nname: pks\nlist: [a, b]\nnested:\n  k: v\nnothing:\n---\n\n# Doc\n");
    expect(out.factions[0]).toMatchObject({
      factionType: "config",
      inferredType: "application/yaml",
      location: { lineStart: 1, lineEnd: 7 },
    });
    expect(texts(out)).toEqual(["name: pks", "list: a, b", "nested: k: v", "Doc"]);
  });

  it("keeps malformed or non-mapping front matter as a span without cells", async () => {
    for (const yaml of ["key: [unclosed", "- just\n- a list", "key: a\nkey: b\n  bad: indent"]) {
      const out = await read(`---\n${yaml}\n---\nText.\n`);
      expect(out.factions[0]?.factionType).toBe("config");
      expect(out.cells.filter((c) => c.faction === 0)).toEqual([]);
    }
  });

  it("reads blockquotes and HTML blocks as text, and skips comments and rules", async () => {
    const out = await read("> Quoted *one*.\n> - item\n\n<!-- hidden -->\n\n<div>Shown &amp; kept.</div>\n\n---\n\n[ref]: http://x\n");
    expect(out.factions.map((f) => [f.factionType, f.inferredType])).toEqual([
      ["text", "text/markdown"],
      ["text", "text/html"],
      ["text", "text/html"],
    ]);
    expect(texts(out)).toEqual(["Quoted one.", "item", "Shown & kept."]);
  });

  it("keeps an empty heading's section under the previous real heading chain", async () => {
    const out = await read("# Top\n\n##\n\nBody.\n");
    expect(out.factions[1]?.factionType).toBe("heading");
    expect(out.cells.at(-1)).toMatchObject({ text: "Body.", parent: 0 });
    expect(out.factions.at(-1)?.headingPath).toEqual(["Top"]);
  });

  it("reads nesting up to the cap, flattening deep lists into fewer cells", async () => {
    const quotes = await read(`${">".repeat(MAX_MARKDOWN_NESTING)} deep quote.\n`);
    expect(texts(quotes)).toEqual(["deep quote."]);
    const emphasis = await read(`${"*".repeat(2_000)}x${"*".repeat(2_000)}\n`);
    expect(texts(emphasis)).toEqual(["x"]);
    const items = Array.from({ length: MAX_MARKDOWN_NESTING }, (_, i) => `${"  ".repeat(i)}- item ${i}.`);
    const out = await read(items.join("\n"));
    expect(out.cells.length).toBeLessThan(MAX_MARKDOWN_NESTING);
    expect(out.cells.slice(0, 10).map((c) => c.text)).toEqual(items.slice(0, 10).map((i) => i.trim().slice(2)));
    expect(texts(out).join(" ")).toBe(items.map((i) => i.trim().slice(2)).join(" "));
  });

  it("refuses containers nested past the cap before parsing", async () => {
    const tooDeep = `document nests deeper than ${MAX_MARKDOWN_NESTING} levels`;
    await expect(read(`${">".repeat(2_000)} deep quote.\n`)).rejects.toThrow(tooDeep);
    const items = Array.from({ length: 100 }, (_, i) => `${"  ".repeat(i)}- item ${i}.`);
    await expect(read(items.join("\n"))).rejects.toThrow(tooDeep);
    await expect(read(`${"> - 1. ".repeat(30)}x\n`)).rejects.toThrow(tooDeep);
  });

  it("reads a 2 MB single-line paragraph into capped cells", async () => {
    const line = "Lorem ipsum dolor sit amet consectetur adipiscing elit ".repeat(37_000);
    const out = await read(`# Big\n\n${line}\n`);
    expect(out.factions[1]?.location).toEqual({ lineStart: 3, lineEnd: 3 });
    expect(out.cells.length).toBeGreaterThan(1_000);
    expect(Math.max(...out.cells.map((c) => c.text.length))).toBeLessThanOrEqual(MAX_CELL_CHARS);
  });
});
