import { describe, expect, it } from "vitest";
import { extractCode, MAX_SOURCE_CHARS } from "../../../src/code/extract-code.js";
import { MAX_REFERENCES_PER_FILE } from "../../../src/code/references.js";

const BROKEN_TS = `
export function before(a: number): number {
  return a + 1;
}

export class Broken {
  method( {
    const x = ;
  }
}

export function after(b: string): string {
  return b.trim();
}
`;

describe("robustness", () => {
  it("extracts what parses from a file with syntax errors", async () => {
    const facts = await extractCode("broken.ts", BROKEN_TS);
    expect(facts?.problems).toContain("syntax_errors");
    const names = facts?.declarations.map((declaration) => declaration.qualifiedName) ?? [];
    expect(names).toContain("before");
    expect(names).toContain("after");
    expect(facts?.references.some((reference) => reference.name === "trim")).toBe(true);
  });

  it("never rejects on garbage in any language", async () => {
    const garbage = "}{)(][ <<< >>> \u0000 \\ ' \" ` @@ ## $$ %% class def fn func {{{{";
    const paths = ["g.ts", "g.tsx", "g.js", "g.py", "g.go", "g.rs", "g.java", "g.c", "g.cpp", "g.cs", "g.rb", "g.php", "g.sh"];
    const results = await Promise.all(paths.map((path) => extractCode(path, garbage)));
    for (const facts of results) expect(facts).toBeDefined();
  });

  it("answers undefined for unsupported languages", async () => {
    expect(await extractCode("notes.md", "# title")).toBeUndefined();
    expect(await extractCode("Makefile", "all:\n\ttrue")).toBeUndefined();
  });

  it("skips files over the size guard", async () => {
    const facts = await extractCode("huge.js", "x".repeat(MAX_SOURCE_CHARS + 1));
    expect(facts).toEqual({ language: "javascript", declarations: [], references: [], imports: [], problems: ["too_large"] });
  });

  it("caps references on a minified line", async () => {
    const source = `var q=${"a+".repeat(MAX_REFERENCES_PER_FILE + 10)}a;`;
    const facts = await extractCode("bundle.min.js", source);
    expect(facts?.references).toHaveLength(MAX_REFERENCES_PER_FILE);
    expect(facts?.problems).toContain("references_capped");
    expect(facts?.declarations[0]?.signature.length).toBeLessThanOrEqual(300);
  });

  it("handles an empty file", async () => {
    expect(await extractCode("empty.py", "")).toEqual({ language: "python", declarations: [], references: [], imports: [] });
  });
});
