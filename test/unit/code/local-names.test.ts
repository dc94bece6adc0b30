import { describe, expect, it } from "vitest";
import { extractCode } from "../../../src/code/extract-code.js";

async function usages(path: string, source: string): Promise<string[]> {
  const facts = await extractCode(path, source);
  return (facts?.references ?? []).filter((reference) => reference.kind === "usage").map((reference) => reference.name);
}

describe("usages skip parameters and locals", () => {
  it("in TypeScript", async () => {
    const source = [
      "import { helper } from './helper.js';",
      "const shared = 1;",
      "export function run<T>(input: T, { depth = 2 }: Options, ...rest: string[]): T {",
      "  const local = helper(input, shared, depth);",
      "  for (const item of rest) local.push(item);",
      "  return [input].map((x) => x).find(Boolean) ?? local.value;",
      "}",
    ].join("\n");
    const names = await usages("run.ts", source);
    for (const local of ["input", "depth", "rest", "local", "item", "x", "T"]) expect(names).not.toContain(local);
    for (const symbol of ["helper", "shared", "Options", "push", "map", "find", "Boolean", "value"]) {
      expect(names).toContain(symbol);
    }
  });

  it("in JavaScript, where an inner function's locals do not hide outer usages", async () => {
    const source = [
      "const config = {};",
      "function outer() {",
      "  function inner(config) { return config.size; }",
      "  return inner(config);",
      "}",
    ].join("\n");
    const facts = await extractCode("scope.js", source);
    const configUsages = facts?.references.filter((reference) => reference.name === "config" && reference.kind === "usage");
    expect(configUsages?.map((reference) => reference.line)).toEqual([4]);
  });

  it("in Python", async () => {
    const source = [
      "import os",
      "LIMIT = 3",
      "def scan(path, *args, depth=0, **options):",
      "    found = [entry for entry in os.listdir(path) if len(entry) < LIMIT]",
      "    for index, name in enumerate(found):",
      "        total = index + depth",
      "    return lambda value: value + total",
    ].join("\n");
    const names = await usages("scan.py", source);
    for (const local of ["path", "args", "depth", "options", "found", "entry", "index", "name", "total", "value"]) {
      expect(names).not.toContain(local);
    }
    for (const symbol of ["os", "listdir", "len", "LIMIT", "enumerate"]) expect(names).toContain(symbol);
  });

  it("but keep member names equal to a local", async () => {
    const names = await usages("member.py", "def f(self, name):\n    return self.name\n");
    expect(names).toEqual(["name"]);
  });
});
