import { describe, expect, it } from "vitest";
import { codeReader } from "../../../src/readers/code/code-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { MAX_CELL_CHARS } from "../../../src/readers/common/sentences.js";
import { FIXTURE_NAMES, readFixture } from "../../support/code-fixtures.js";

async function read(path: string, text: string | Uint8Array): Promise<ReadOutput> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  return codeReader.read({ path, contentType: "application/octet-stream", bytes });
}

describe("code reader", () => {
  it("accepts the paths the code extractor knows", () => {
    expect(codeReader.accepts({ path: "src/a.ts", contentType: "text/x-typescript" })).toBe(true);
    expect(codeReader.accepts({ path: "lib/x.PY", contentType: "text/plain" })).toBe(true);
    expect(codeReader.accepts({ path: "README.md", contentType: "text/markdown" })).toBe(false);
    expect(codeReader.accepts({ path: "Makefile", contentType: "text/x-makefile" })).toBe(false);
  });

  it.each(FIXTURE_NAMES)("%s: one code_unit faction and one cell per declaration, every line kept", async (name) => {
    const source = readFixture(name);
    const out = await read(`src/${name}`, source);
    const declarations = out.code!.declarations;
    expect(declarations.length).toBeGreaterThan(0);
    expect(out.factions.every((f) => f.factionType === "code_unit" && f.inferredType.startsWith("text/"))).toBe(true);
    expect(out.cells.map((c) => c.declaration)).toEqual(declarations.map((_, i) => i));
    const lineCount = source.split("\n").length;
    for (const cell of out.cells) {
      const d = declarations[cell.declaration!]!;
      const faction = out.factions[cell.faction]!;
      expect(cell.text.startsWith(`${d.kind} ${d.qualifiedName} — `)).toBe(true);
      expect(cell.text).toContain(` — src/${name}`);
      expect(cell.text.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
      expect(faction.location.lineStart).toBeLessThanOrEqual(d.lines[0]);
      expect(faction.location.lineEnd).toBe(Math.min(d.lines[1], lineCount));
      expect(faction.headingPath).toEqual(d.container);
    }
    const starts = out.factions.map((f) => f.location.lineStart ?? 0);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const kept = new Set(out.factions.flatMap((f) => f.text.split("\n")));
    const missing = source.split("\n").filter((line) => line.trim() !== "" && !kept.has(line));
    expect(missing).toEqual([]);
  });

  it("an edit inside a method body changes that method's faction only", async () => {
    const source = readFixture("sample.ts");
    const before = await read("src/sample.ts", source);
    const edited = source.replace("    greetCount += 1;\n", "    greetCount += 1;\n    greetCount += 0;\n");
    const after = await read("src/sample.ts", edited);
    expect(after.factions).toHaveLength(before.factions.length);
    const old = new Set(before.factions.map((f) => f.text));
    const changed = after.factions.filter((f) => !old.has(f.text));
    expect(changed).toHaveLength(1);
    expect(changed[0]!.text).toContain("greet(name: T): string {");
    expect(after.cells.map((c) => c.text)).toEqual(before.cells.map((c) => c.text));
  });

  it("top-level code outside declarations is cut into cell-less paragraphs", async () => {
    const out = await read("bin/run.sh", "#!/bin/sh\nset -e\n\necho one\necho two\n\nmain() {\n  echo main\n}\n\nmain \"$@\"\n");
    const gaps = out.factions.filter((f, i) => !out.cells.some((c) => c.faction === i));
    expect(gaps.map((f) => [f.location.lineStart, f.location.lineEnd, f.text])).toEqual([
      [1, 2, "#!/bin/sh\nset -e"],
      [4, 5, "echo one\necho two"],
      [11, 11, 'main "$@"'],
    ]);
  });

  it("bytes that are not text give no units but still code facts", async () => {
    const out = await read("clip.ts", new Uint8Array([0x47, 0x00, 0x11]));
    expect(out.factions).toEqual([]);
    expect(out.code).toMatchObject({ language: "typescript", declarations: [], problems: ["not_text"] });
  });
});
