import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { blockStarts } from "../../../src/readers/markdown/markdown-blocks.js";
import {
  MarkdownPartCache,
  markdownReadCounts,
  readMarkdownSource,
  resetMarkdownReadCounts,
} from "../../../src/readers/markdown/markdown-incremental.js";
import { markdownReader } from "../../../src/readers/markdown/markdown-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";

/**
 * Lines that make Markdown blocks reach across lines: headings of every
 * kind, headings hidden in fences, HTML, front matter and list items,
 * setext underlines, tables, quotes with lazy lines, definitions and the
 * references they turn into links, footnotes.
 */
const LINES = [
  "",
  "",
  "",
  "# Title",
  "## Part two",
  "### Third level #",
  "#no space is text",
  " ## indented heading",
  "   # three spaces",
  "    # indented code",
  "Plain prose. It has two sentences.",
  "More prose with *emphasis* and `code`.",
  "A line naming [foo] and [Bar][foo] and [baz].",
  "A note[^1] and another[^two].",
  "===",
  "---",
  "- - -",
  "***",
  "- item one",
  "- item two",
  "  - nested item",
  "  continued item text",
  "1. first",
  "2) second",
  "   # heading in an item",
  "  ```",
  "```",
  "```js",
  "~~~",
  "````",
  "```bash `not a fence`",
  "# comment in code",
  "> quoted line",
  "> # quoted heading",
  ">",
  "lazy continuation",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "<div>",
  "</div>",
  "<!-- comment",
  "-->",
  "<!-- one line -->",
  "<script>",
  "</script>",
  "<?php echo 1; ?>",
  "<?php",
  "?>",
  "<!DOCTYPE html>",
  "<![CDATA[",
  "]]>",
  "<span>inline</span>",
  "[foo]: https://example.com/foo",
  "[baz]: /baz 'title'",
  "> [bar]: /bar",
  "[^1]: The first note.",
  "[^two]: The second note.",
  "    continued note",
  "title: front matter",
  "\ttabbed line",
  "Setext title",
];

const line = fc.constantFrom(...LINES);

/** Runs of lines where a cut is easy to get wrong: a heading right after a block that may swallow it. */
const SNIPPETS = [
  ["- item", "  ```", "# in the item's fence", "  ```", "# swallowed by a top-level fence", "text"],
  ["<div>", "# inside the HTML block"],
  ["| a | b |", "|---|---|", "| 1 | 2 |", "# after the table"],
  ["> quote", "# after the quote"],
  ["    indented code", "# after the code"],
  ["Paragraph", "# after the paragraph"],
  ["```", "# in a fence", "```"],
  ["<!--", "", "# in a comment", "-->"],
  ["", "Setext title", "---"],
  ["", "Setext title", "==="],
];

/** Mostly headings and the lines that play with them. */
const unit = fc.oneof(
  { weight: 4, arbitrary: line.map((l) => [l]) },
  { weight: 2, arbitrary: fc.constantFrom("# A", "## B", "### C").map((h) => ["", h]) },
  { weight: 1, arbitrary: fc.constantFrom(...SNIPPETS) },
);

/** A document: random lines and snippets, sometimes opened by front matter (closed or not). */
const documents = fc
  .tuple(fc.constantFrom("none", "closed", "open"), fc.array(unit, { minLength: 0, maxLength: 40 }), fc.boolean())
  .map(([front, units, finalNewline]) => {
    const head = front === "closed" ? ["---", "title: x", "# not a heading", "---"] : front === "open" ? ["---", "# a heading after all"] : [];
    return [...head, ...units.flat()].join("\n") + (finalNewline ? "\n" : "");
  });

type Edit = { kind: "replace" | "insert" | "delete"; at: number; text: string };
const edits = fc.array(
  fc.record({ kind: fc.constantFrom<Edit["kind"]>("replace", "insert", "delete"), at: fc.nat(80), text: line }),
  { minLength: 1, maxLength: 3 },
);

function applyEdits(source: string, list: readonly Edit[]): string {
  const lines = source.split("\n");
  for (const e of list) {
    const at = e.at % (lines.length + 1);
    if (e.kind === "insert") lines.splice(at, 0, e.text);
    else if (at < lines.length) lines.splice(at, 1, ...(e.kind === "replace" ? [e.text] : []));
  }
  return lines.join("\n");
}

/** The whole-document parse, no cache involved. */
const full = (source: string): ReadOutput => readMarkdownSource(source, "doc.md");

/** A cache that parses changed parts however small the document (the default parses small documents whole). */
const partsCache = () => new MarkdownPartCache({ parseSetupChars: 0 });

describe("incremental Markdown re-reading", () => {
  beforeEach(() => resetMarkdownReadCounts());

  it("gives the output of a full parse after random edits of random documents", () => {
    fc.assert(
      fc.property(documents, fc.array(edits, { minLength: 1, maxLength: 4 }), (original, rounds) => {
        const cache = partsCache();
        let source = original;
        expect(readMarkdownSource(source, "doc.md", cache)).toStrictEqual(full(source));
        for (const round of rounds) {
          source = applyEdits(source, round);
          expect(readMarkdownSource(source, "doc.md", cache)).toStrictEqual(full(source));
        }
      }),
      { numRuns: Number(process.env.MD_RUNS ?? 400) },
    );
    // The property went through the parts path, joins and fallbacks included, not only whole parses.
    const counts = markdownReadCounts();
    expect(counts.incremental).toBeGreaterThan(200);
    expect(counts.partsReused).toBeGreaterThan(200);
    expect(counts.cutsUnconfirmed).toBeGreaterThan(0);
    expect(counts.fallbacks["definitions-changed"]).toBeGreaterThan(0);
  });

  it("gives the output of a full parse for edits of long sectioned documents", () => {
    const sections = fc.array(fc.tuple(fc.constantFrom("# A", "## B", "### C", "Title\n=====", "Sub\n---"), fc.array(line, { maxLength: 12 })), {
      minLength: 3,
      maxLength: 25,
    });
    const sectioned = sections.map((list) => list.map(([heading, body]) => ["", heading, "", ...body].join("\n")).join("\n"));
    fc.assert(
      fc.property(sectioned, fc.array(edits, { minLength: 1, maxLength: 3 }), (original, rounds) => {
        const cache = partsCache();
        let source = original;
        readMarkdownSource(source, "doc.md", cache);
        for (const round of rounds) {
          source = applyEdits(source, round);
          expect(readMarkdownSource(source, "doc.md", cache)).toStrictEqual(full(source));
        }
      }),
      { numRuns: Number(process.env.MD_RUNS ?? 100) },
    );
    const counts = markdownReadCounts();
    expect(counts.partsReused).toBeGreaterThan(counts.partsParsed);
  });

  it("the reader's own cache gives the same output as a fresh parse", async () => {
    const lines = Array.from({ length: 400 }, (_, i) => (i % 8 === 0 ? `## Part ${i}` : `Line ${i} says something.`));
    const bytes = (text: string) => new TextEncoder().encode(text);
    const path = "reader-cache.md";
    await markdownReader.read({ path, contentType: "text/markdown", bytes: bytes(lines.join("\n")) });
    lines[20] = "Line 20 now says something else.";
    const edited = lines.join("\n");
    const before = markdownReadCounts().incremental;
    expect(await markdownReader.read({ path, contentType: "text/markdown", bytes: bytes(edited) })).toStrictEqual(full(edited));
    expect(markdownReadCounts().incremental).toBe(before + 1);
  });

  it("parses only the touched section of a long document and moves the anchors below it", () => {
    const lines: string[] = [];
    for (let s = 0; lines.length < 2000; s++) lines.push(`## Section ${s}`, "", `Section ${s} states a fact.`, "", "- a point", "- another point", "");
    const cache = new MarkdownPartCache();
    const before = readMarkdownSource(lines.join("\n"), "long.md", cache);
    const at = lines.indexOf("Section 100 states a fact.");
    lines.splice(at, 1, "Section 100 states a new fact.", "It has a second line now.");
    const edited = lines.join("\n");
    resetMarkdownReadCounts();
    const after = readMarkdownSource(edited, "long.md", cache);
    expect(markdownReadCounts()).toMatchObject({ full: 0, incremental: 1, partsParsed: 1 });
    expect(after).toStrictEqual(full(edited));
    const moved = after.factions.filter((f, i) => (f.location.lineStart ?? 0) > at + 1 && f.location.lineStart !== (before.factions[i]?.location.lineStart ?? 0) + 1);
    expect(moved).toEqual([]);
    expect(after.factions.length).toBe(before.factions.length);
  });

  it("does not cut inside fences, HTML blocks or front matter", () => {
    const doc = [
      "---",
      "# yaml comment",
      "---",
      "Intro.",
      "",
      "```sh",
      "# shell comment",
      "```",
      "<!--",
      "# hidden",
      "-->",
      "# Real",
      "",
      "Setext",
      "------",
      "text",
    ].join("\n");
    expect(blockStarts(doc).map((s) => [s.line, s.headingLines])).toEqual([
      [12, 1],
      [14, 2],
    ]);
  });

  it("joins a part whose cut the parser does not confirm", () => {
    // The scan takes the item's fence for a top-level one, so it cuts at `# y`, which the parser puts in a fence.
    const doc = ["# A", "", "Intro.", "", "# B", "- item", "  ```", "# x", "  ```", "# y", "code"].join("\n");
    expect(blockStarts(doc).map((s) => s.line)).toEqual([5, 10]);
    const cache = partsCache();
    readMarkdownSource(doc, "join.md", cache);
    const first = doc.replace("Intro.", "Intro, edited.");
    resetMarkdownReadCounts();
    expect(readMarkdownSource(first, "join.md", cache)).toStrictEqual(full(first));
    // The first reading found the cut wrong: the part from `# B` is read joined to the last, and reused.
    expect(markdownReadCounts()).toMatchObject({ incremental: 1, partsParsed: 1, partsReused: 1, cutsUnconfirmed: 1 });

    const second = first.replace("- item", "- item, edited");
    resetMarkdownReadCounts();
    expect(readMarkdownSource(second, "join.md", cache)).toStrictEqual(full(second));
    // Now the parser itself refuses the cut: the part up to `# y` is parsed, then the joined part.
    expect(markdownReadCounts()).toMatchObject({ incremental: 1, partsParsed: 2, partsReused: 1, cutsUnconfirmed: 1 });
    expect(full(second).factions.at(-1)?.text).toBe("```\n# y\ncode");
  });

  it("parses whole once more cuts are refused than a re-reading tolerates", () => {
    // A top-level fence the scan does not see (it takes the item's fence for one) swallows 500 headings.
    const lines = ["# A", "", "Intro.", "", "- item", "  ```", "# in the item", "  ```"];
    for (let i = 0; i < 500; i++) lines.push(`# fenced ${i}`);
    const doc = lines.join("\n");
    expect(blockStarts(doc)).toHaveLength(500);
    const cache = partsCache();
    readMarkdownSource(doc, "fenced.md", cache);
    const edited = doc.replace("Intro.", "Intro, edited.");
    resetMarkdownReadCounts();
    const out = readMarkdownSource(edited, "fenced.md", cache);
    expect(markdownReadCounts()).toMatchObject({ full: 1, incremental: 0, fallbacks: { "unsafe-split": 1 } });
    expect(out).toStrictEqual(full(edited));
    expect(out.factions.at(-1)?.text.split("\n")).toHaveLength(501);
  });

  it("keeps reference links resolved across parts, and parses whole when the definitions change", () => {
    const doc = ["# One", "", "See [foo] and [^n].", "", "# Two", "", "Text.", "", "# Three", "", "[foo]: /foo", "[^n]: A note."].join("\n");
    const cache = partsCache();
    readMarkdownSource(doc, "refs.md", cache);
    const edited = doc.replace("Text.", "Other text.");
    resetMarkdownReadCounts();
    const out = readMarkdownSource(edited, "refs.md", cache);
    expect(out).toStrictEqual(full(edited));
    expect(markdownReadCounts()).toMatchObject({ incremental: 1, partsParsed: 1 });
    expect(out.cells.map((c) => c.text)).toContain("See foo and .");

    const undefinedNow = edited.replace("[foo]: /foo", "");
    const again = readMarkdownSource(undefinedNow, "refs.md", cache);
    expect(again).toStrictEqual(full(undefinedNow));
    expect(again.cells.map((c) => c.text)).toContain("See [foo] and .");
    expect(markdownReadCounts().fallbacks["definitions-changed"]).toBe(1);
  });

  it("parses a small or mostly changed document whole", () => {
    const doc = "# A\n\nText.\n\n# B\n\nMore.\n";
    const cache = new MarkdownPartCache();
    readMarkdownSource(doc, "small.md", cache);
    const edited = doc.replace("More.", "More text.");
    resetMarkdownReadCounts();
    const out = readMarkdownSource(edited, "small.md", cache);
    expect(markdownReadCounts()).toMatchObject({ full: 1, incremental: 0, fallbacks: { "mostly-changed": 1 } });
    expect(out).toStrictEqual(full(edited));
  });

  it("a restarted reader (an empty cache) parses the whole document once", () => {
    const doc = "# A\n\nText.\n\n# B\n\nMore.\n";
    resetMarkdownReadCounts();
    readMarkdownSource(doc, "x.md", new MarkdownPartCache());
    expect(markdownReadCounts()).toMatchObject({ full: 1, incremental: 0 });
  });
});

describe("the part cache", () => {
  const entry = (chars: number) => ({ definitions: { links: [], footnotes: [], key: "" }, parts: new Map(), chars });

  it("drops the least recently read paths past its bound", () => {
    const cache = new MarkdownPartCache({ maxChars: 100 });
    cache.set("a.md", entry(40));
    cache.set("b.md", entry(40));
    expect(cache.get("a.md")).toBeDefined(); // a is now the most recent
    cache.set("c.md", entry(40));
    expect(cache.get("b.md")).toBeUndefined();
    expect(cache.get("a.md")).toBeDefined();
    expect(cache.size).toEqual({ paths: 2, chars: 80 });
  });

  it("keeps no document larger than the bound, and replaces a path's reading", () => {
    const cache = new MarkdownPartCache({ maxChars: 100 });
    cache.set("big.md", entry(101));
    expect(cache.size).toEqual({ paths: 0, chars: 0 });
    cache.set("a.md", entry(30));
    cache.set("a.md", entry(50));
    expect(cache.size).toEqual({ paths: 1, chars: 50 });
  });
});
