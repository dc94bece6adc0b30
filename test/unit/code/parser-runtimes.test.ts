import { describe, expect, it } from "vitest";
import { extractCode } from "../../../src/code/extract-code.js";
import { CODE_LANGUAGES, codeLanguageForPath } from "../../../src/code/languages.js";
import { loadNativeParser } from "../../../src/code/native-parser.js";
import { codeParser } from "../../../src/code/parser-runtime.js";
import { FIXTURE_NAMES, readFixture } from "../../support/code-fixtures.js";

/** Sources beyond the fixtures: non-ASCII text (offsets and columns) and broken syntax. */
const EXTRA: Array<[string, string]> = [
  ["src/unicode.ts", "/** Größe in µm — 測定. */\nexport const größe = \"日本語\";\nexport function mäßig(x: number): number { return größe.length + x; }\n"],
  ["src/broken.py", "def ok(a):\n    return a\n\ndef broken(:\n    pass\n\nclass Fine:\n    x = 1\n"],
];

describe("parser runtimes", async () => {
  const probe = CODE_LANGUAGES[0]!;
  const native = await loadNativeParser(probe);

  if ("unavailable" in native) {
    it("the native runtime does not load here, so WASM is the runtime in use", async () => {
      console.warn(`native tree-sitter unavailable: ${native.unavailable}`);
      const loaded = await codeParser.load(probe);
      const tree = loaded.parse("export const x = 1;");
      expect(tree?.rootNode.type).toBe("program");
      tree?.delete();
      expect(native.unavailable.length).toBeGreaterThan(0);
    });
    return;
  }

  // Grammars that ship only as `.wasm` (no native binding) have nothing to compare against.
  const nativeLoads = async (path: string): Promise<boolean> => {
    const language = codeLanguageForPath(path);
    return language !== undefined && (await native.parser.load(language).then(() => true, () => false));
  };
  const all: Array<[string, string]> = [...FIXTURE_NAMES.map((name): [string, string] => [`src/${name}`, readFixture(name)]), ...EXTRA];
  const sources: Array<[string, string]> = [];
  for (const entry of all) if (await nativeLoads(entry[0])) sources.push(entry);

  it("compares every language whose grammar package has a native binding", () => {
    expect(sources.length).toBeGreaterThanOrEqual(13);
  });

  it.each(sources)("native and WASM extract identical facts from %s", async (path, source) => {
    const viaWasm = await extractCode(path, source, codeParser);
    const viaNative = await extractCode(path, source, native.parser);
    expect(viaWasm?.declarations.length).toBeGreaterThan(0);
    expect(viaNative).toEqual(viaWasm);
  });
});
