import { describe, expect, it } from "vitest";
import { lexicalReader } from "../../../src/readers/text/lexical-reader.js";

const read = (path: string, contentType: string, text: string | Uint8Array) =>
  lexicalReader.read({ path, contentType, bytes: typeof text === "string" ? Buffer.from(text) : text });

describe("lexical reader", () => {
  it("reads a file in a language without a grammar as runs of lines, each with its text as cells", async () => {
    const sql = [
      "-- Orders placed through the storefront.",
      "CREATE TABLE orders (",
      "  order_id INTEGER PRIMARY KEY,",
      "  placed_at TEXT NOT NULL",
      ");",
      "",
      "CREATE INDEX orders_placed ON orders (placed_at);",
    ].join("\r\n");
    const out = await read("db/schema.sql", "application/sql", sql);
    expect(out.factions).toEqual([
      {
        factionType: "code_block",
        inferredType: "application/sql",
        location: { lineStart: 1, lineEnd: 7 },
        text: sql.replace(/\r\n/g, "\n"),
        headingPath: [],
      },
    ]);
    expect(out.cells.map((c) => c.faction)).toEqual([0]);
    expect(out.cells[0]!.text).toContain("CREATE TABLE orders ( order_id INTEGER PRIMARY KEY,");
  });

  it("cuts long files at blank lines once a run is a screenful, and never lets a run pass 60 lines", async () => {
    const para = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} line ${i}`).join("\n");
    const text = [para(5, "alpha"), para(10, "beta"), para(3, "gamma"), para(130, "delta")].join("\n\n");
    const out = await read("notes.unknownext", "application/octet-stream", text);
    expect(out.factions.map((f) => [f.factionType, f.location.lineStart, f.location.lineEnd])).toEqual([
      ["text", 1, 16],
      ["text", 18, 77],
      ["text", 78, 137],
      ["text", 138, 151],
    ]);
    expect(out.factions.every((f) => f.inferredType === "text/plain")).toBe(true);
    expect(out.cells.some((c) => c.text.includes("gamma line 2"))).toBe(true);
  });

  it("reads a run of an untelling file as code when its lines are dense with code marks, and prose beside it as text", async () => {
    const snapshot = [
      "// Vitest Snapshot v1",
      "",
      "exports[`compiler: parse > Element > void element 1`] = `",
      "{",
      '  "type": 1,',
      '  "tag": "img",',
      '  "props": [],',
      '  "children": [],',
      '  "isSelfClosing": true,',
      '  "loc": { "start": 0, "end": 6 },',
      '  "ns": 0,',
      "}",
      "`;",
    ].join("\n");
    const prose = Array.from({ length: 12 }, (_, i) => `The Release Team met in Lisbon and agreed on item ${i}, as the notes say.`).join("\n");
    const out = await read("__snapshots__/parse.spec.ts.snap", "application/octet-stream", `${snapshot}\n\n${prose}`);
    expect(out.factions.map((f) => [f.factionType, f.inferredType])).toEqual([
      ["code_block", "text/plain"],
      ["text", "text/plain"],
    ]);
  });

  it("gives an empty reading for bytes that are not clean readable text", async () => {
    expect(await read("blob.unknownext", "application/octet-stream", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]))).toEqual({ factions: [], cells: [] });
    expect(await read("empty.unknownext", "application/octet-stream", "")).toEqual({ factions: [], cells: [] });
    expect(lexicalReader.accepts({ path: "logo.png", contentType: "image/png" })).toBe(false);
    expect(lexicalReader.accepts({ path: "a.zip", contentType: "application/zip" })).toBe(false);
    expect(lexicalReader.accepts({ path: "assets/intro.mp4", contentType: "application/octet-stream" })).toBe(false);
  });
});
