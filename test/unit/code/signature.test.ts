import { describe, expect, it } from "vitest";
import type { CodeDeclaration } from "../../../src/code/code-facts.js";
import { extractCode } from "../../../src/code/extract-code.js";
import { MAX_SIGNATURE_CHARS } from "../../../src/code/signature.js";
import { FIXTURE_NAMES, readFixture } from "../../support/code-fixtures.js";

const WITH_BODY = new Set(["function", "method", "constructor", "class", "interface", "struct", "trait", "enum", "module", "namespace"]);

async function declarations(path: string, source: string): Promise<CodeDeclaration[]> {
  return (await extractCode(path, source))?.declarations ?? [];
}

/** Source lines inside a declaration after the line holding its name, without its last line. */
function innerLines(source: string, declaration: CodeDeclaration): string[] {
  const lines = source.split("\n").slice(declaration.lines[0] - 1, declaration.lines[1] - 1);
  const nameLine = lines.findIndex((line) => line.includes(declaration.symbol));
  return lines
    .slice(nameLine + 1)
    .map((line) => line.trim())
    .filter((line) => line.length > 3 && !/^[{}()[\];,]+$/.test(line));
}

describe("signatures", () => {
  for (const name of FIXTURE_NAMES) {
    it(`never contain a body in ${name}`, async () => {
      const source = readFixture(name);
      for (const declaration of await declarations(name, source)) {
        expect(declaration.signature.length).toBeLessThanOrEqual(MAX_SIGNATURE_CHARS);
        expect(declaration.signature).not.toMatch(/\n/);
        expect(declaration.signature).toContain(declaration.symbol.replace(/^~/, ""));
        if (!WITH_BODY.has(declaration.kind)) continue;
        expect(declaration.signature, declaration.qualifiedName).not.toMatch(/\breturn\b|[{]\s*$/);
        for (const line of innerLines(source, declaration)) {
          expect(declaration.signature, `${declaration.qualifiedName} holds "${line}"`).not.toContain(line);
        }
      }
    });
  }

  it("stop at the body on one line and keep the header of a minified function", async () => {
    const body = "return a+b;".repeat(5000);
    const [declaration] = await declarations("min.js", `function add(a,b){${body}}`);
    expect(declaration?.signature).toBe("function add(a,b)");
  });

  it("clip long headers and keep only the first line of a value", async () => {
    const params = Array.from({ length: 200 }, (_, index) => `p${index}: number`).join(", ");
    const source = `export function wide(${params}): void {}\nexport const table = {\n  a: 1,\n};\n`;
    const [wide, table] = await declarations("wide.ts", source);
    expect(wide?.signature.length).toBe(MAX_SIGNATURE_CHARS);
    expect(wide?.signature.endsWith("…")).toBe(true);
    expect(table?.signature).toBe("export const table = {");
  });

  it("keep decorators and export keywords but not Python bodies", async () => {
    const source = '@cache\ndef area(r: float) -> float:\n    """Area."""\n    return 3.14 * r * r\n';
    const [area] = await declarations("geo.py", source);
    expect(area?.signature).toBe("@cache def area(r: float) -> float:");
    expect(area?.doc).toBe("Area.");
    expect(area?.lines).toEqual([1, 4]);
  });
});
