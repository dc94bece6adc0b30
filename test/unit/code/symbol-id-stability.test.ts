import { describe, expect, it } from "vitest";
import type { CodeFacts } from "../../../src/code/code-facts.js";
import { extractCode } from "../../../src/code/extract-code.js";
import { symbolIdFor } from "../../../src/code/symbol-id.js";
import { FIXTURE_NAMES, readFixture } from "../../support/code-fixtures.js";

const CALLABLE = new Set(["function", "method", "constructor"]);
const HASH_COMMENT = /\.(py|rb|sh|ex)$/;
const DASH_COMMENT = /\.(hs|lua)$/;

async function facts(name: string, source: string): Promise<CodeFacts> {
  const result = await extractCode(name, source);
  if (!result) throw new Error(`no facts for ${name}`);
  return result;
}

function idsByName(result: CodeFacts): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const declaration of result.declarations) {
    const key = `${declaration.kind} ${declaration.qualifiedName}`;
    ids.set(key, [...(ids.get(key) ?? []), declaration.symbolId]);
  }
  return ids;
}

/** Adds two lines inside the body of the first multi-line callable. */
function editOneBody(name: string, source: string, result: CodeFacts): { edited: string; target: string } {
  const target = result.declarations.find(
    (declaration) => CALLABLE.has(declaration.kind) && declaration.lines[1] - declaration.lines[0] >= 2,
  );
  if (!target) throw new Error(`no multi-line callable in ${name}`);
  const lines = source.split("\n");
  const comment = HASH_COMMENT.test(name) ? "# edited" : DASH_COMMENT.test(name) ? "-- edited" : "// edited";
  const bodyLine = lines[target.lines[0]] ?? "";
  const indent = /^\s*/.exec(bodyLine)?.[0] ?? "";
  lines.splice(target.lines[0], 0, `${indent}${comment}`, `${indent}${comment} again`);
  return { edited: lines.join("\n"), target: target.qualifiedName };
}

describe("symbol ids", () => {
  for (const name of FIXTURE_NAMES) {
    it(`survive editing one function body in ${name}`, async () => {
      const source = readFixture(name);
      const before = await facts(name, source);
      const { edited, target } = editOneBody(name, source, before);
      const after = await facts(name, edited);
      expect(idsByName(after), `after editing ${target}`).toEqual(idsByName(before));
      const shifted = after.declarations.filter(
        (declaration, index) => declaration.lines[0] !== before.declarations[index]?.lines[0],
      );
      expect(shifted.length).toBeGreaterThan(0);
    });
  }

  it("survive inserting a declaration above them", async () => {
    const source = readFixture("sample.ts");
    const before = await facts("sample.ts", source);
    const after = await facts("sample.ts", `export const ADDED = 1;\n\n${source}`);
    const ids = new Set(after.declarations.map((declaration) => declaration.symbolId));
    for (const declaration of before.declarations) expect(ids.has(declaration.symbolId)).toBe(true);
  });

  it("differ by path, container and name, and give overloads ordinals", async () => {
    const result = await facts("sample.ts", readFixture("sample.ts"));
    const overloads = result.declarations.filter((declaration) => declaration.symbol === "overloaded");
    expect(overloads).toHaveLength(3);
    expect(new Set(overloads.map((declaration) => declaration.symbolId)).size).toBe(3);
    const all = result.declarations.map((declaration) => declaration.symbolId);
    expect(new Set(all).size).toBe(all.length);
    const other = await facts("other/sample.ts", readFixture("sample.ts"));
    expect(other.declarations[0]?.symbolId).not.toBe(result.declarations[0]?.symbolId);
  });

  it("have the documented shape and ignore the kind within a class of kinds", () => {
    const base = { language: "typescript", path: "a.ts", container: ["A"], name: "x", ordinal: 0 };
    const constant = symbolIdFor({ ...base, kind: "constant" });
    expect(constant).toMatch(/^sym_[A-Za-z0-9_-]{22}$/);
    expect(symbolIdFor({ ...base, kind: "variable" })).toBe(constant);
    expect(symbolIdFor({ ...base, kind: "method" })).not.toBe(constant);
    expect(symbolIdFor({ ...base, kind: "constant", ordinal: 1 })).not.toBe(constant);
  });
});
