import { describe, expect, it } from "vitest";
import type { ReaderInput, ReadOutput } from "../../../src/readers/reader.js";
import { MAX_CELL_CHARS } from "../../../src/readers/common/sentences.js";
import { textReader } from "../../../src/readers/text/text-reader.js";
import { expectWellFormed } from "../../support/invariants.js";

async function read(
  source: string | Uint8Array,
  path = "notes.txt",
  contentType = "text/plain",
): Promise<ReadOutput> {
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  const out = await textReader.read({ path, contentType, bytes });
  expectWellFormed(out);
  return out;
}

const texts = (out: ReadOutput): string[] => out.cells.map((c) => c.text);
const shape = (out: ReadOutput) =>
  out.factions.map((f) => [f.factionType, f.location.lineStart, f.location.lineEnd]);

describe("textReader.accepts", () => {
  it.each<[string, string, boolean]>([
    ["a.txt", "application/octet-stream", true],
    ["a.TEXT", "", true],
    ["logs/app.log", "", true],
    ["docs/index.rst", "", true],
    ["anything.dat", "text/plain; charset=utf-8", true],
    ["LICENSE", "application/octet-stream", true],
    ["bin/tool", "", true],
    ["image.png", "image/png", false],
    ["src/main.ts", "text/x-typescript", false],
    ["Makefile", "text/x-makefile", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    const input: Pick<ReaderInput, "path" | "contentType"> = { path, contentType };
    expect(textReader.accepts(input)).toBe(expected);
  });
});

describe("textReader.read", () => {
  it("reads nothing from an empty file", async () => {
    expect(await read("")).toEqual({ factions: [], cells: [] });
  });

  it("splits paragraphs at blank lines and sentences within them", async () => {
    const out = await read("First para, line one\ncontinues here. Second sentence.\n\n\n  Another   one.\n");
    expect(shape(out)).toEqual([["text", 1, 2], ["text", 5, 5]]);
    expect(out.factions[0]?.text).toBe("First para, line one\ncontinues here. Second sentence.");
    expect(texts(out)).toEqual(["First para, line one continues here.", "Second sentence.", "Another one."]);
  });

  it("counts lines of the original file with CRLF, lone CR and a BOM", async () => {
    const out = await read("\uFEFFOne.\r\n\r\nTwo a.\r\nTwo b.\r\rThree.\r\n");
    expect(shape(out)).toEqual([["text", 1, 1], ["text", 3, 4], ["text", 6, 6]]);
    expect(texts(out)).toEqual(["One.", "Two a.", "Two b.", "Three."]);
  });

  it("reads underlined, all-caps and numbered lines as headings", async () => {
    const source = [
      "Project Title", "=============", "", "Intro text.", "", "OVERVIEW", "", "Body of overview.",
      "", "1.  Scope", "", "Scope text.", "", "1.1.  Limits", "", "Limits text.", "Usage", "-----", "Use it.",
    ].join("\n");
    const out = await read(source);
    expect(shape(out)).toEqual([
      ["heading", 1, 2], ["text", 4, 4], ["heading", 6, 6], ["text", 8, 8], ["heading", 10, 10],
      ["text", 12, 12], ["heading", 14, 14], ["text", 16, 16], ["heading", 17, 18], ["text", 19, 19],
    ]);
    expect(out.factions.map((f) => f.headingPath.join(" > "))).toEqual([
      "", "Project Title", "Project Title", "Project Title > OVERVIEW", "Project Title > OVERVIEW",
      "Project Title > OVERVIEW > 1. Scope", "Project Title > OVERVIEW > 1. Scope",
      "Project Title > OVERVIEW > 1. Scope > 1.1. Limits", "Project Title > OVERVIEW > 1. Scope > 1.1. Limits",
      "Project Title > OVERVIEW > 1. Scope > 1.1. Limits > Usage",
    ]);
    const limits = out.cells.findIndex((c) => c.text === "1.1. Limits");
    expect(out.cells.find((c) => c.text === "Limits text.")?.parent).toBe(limits);
  });

  it("does not take sentences, long caps lines or indented numbers for headings", async () => {
    const out = await read("ALL DONE.\n\nTHIS LINE IS FAR TOO LONG TO BE A HEADING IN ANY SENSIBLE DOCUMENT AT ALL\n\n   2. indented item\n");
    expect(out.factions.map((f) => f.factionType)).toEqual(["text", "text", "list"]);
  });

  it("reads bulleted lines as one list with a cell per item", async () => {
    const out = await read("- first item\n  wraps here\n- second\n\n* third after a gap\n\n(a) lettered\n");
    expect(shape(out)).toEqual([["list", 1, 7]]);
    expect(texts(out)).toEqual(["first item wraps here", "second", "third after a gap", "lettered"]);
  });

  it("keeps diagrams as cell-less code blocks and reads columns line by line", async () => {
    const diagram = "+--------+--------+\n|  0..7  |  8..15 |\n+--------+--------+";
    const out = await read(`${diagram}\n\nAuthor     Org\nJ. Doe     ACME Inc.\n`);
    expect(out.factions.map((f) => f.factionType)).toEqual(["code_block", "text"]);
    expect(out.factions[0]?.text).toBe(diagram);
    expect(texts(out)).toEqual(["Author Org", "J. Doe ACME Inc."]);
  });

  it("gives log files one cell per line, in factions of at most 100 lines", async () => {
    const lines = Array.from({ length: 250 }, (_, i) => `2024-01-01 INFO event ${i}. Done.`);
    const out = await read(lines.join("\n"), "var/app.log", "");
    expect(shape(out)).toEqual([["text", 1, 100], ["text", 101, 200], ["text", 201, 250]]);
    expect(texts(out)).toEqual(lines);
  });

  it("reads a clean extensionless file and nothing from a binary one", async () => {
    const ok = await read("Plain words here.\n", "LICENSE", "application/octet-stream");
    expect(texts(ok)).toEqual(["Plain words here."]);
    const binary = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00, 0x00, 0x41]);
    expect(await read(binary, "bin/tool", "application/octet-stream")).toEqual({ factions: [], cells: [] });
  });

  it("still reads a declared text file with a malformed byte", async () => {
    const out = await read(new Uint8Array([0x48, 0x69, 0xff, 0x2e]));
    expect(texts(out)).toEqual(["Hi\uFFFD."]);
  });

  it("labels spans with the file's text type", async () => {
    expect((await read("x", "a.rst", "text/plain")).factions[0]?.inferredType).toBe("text/x-rst");
    expect((await read("x", "LICENSE", "")).factions[0]?.inferredType).toBe("text/plain");
  });

  it("reads a 2 MB single-line paragraph into capped cells", async () => {
    const out = await read(`${"b".repeat(2 * 1024 * 1024)}\n`);
    expect(shape(out)).toEqual([["text", 1, 1]]);
    expect(out.cells.length).toBe(Math.ceil((2 * 1024 * 1024) / MAX_CELL_CHARS));
  });
});
