/**
 * The native tree-sitter runtime (the optional `tree-sitter` package and the
 * grammar packages' Node bindings) behind the same `CodeParser` interface as
 * the WASM one. It is loaded on demand; where it does not load (not
 * installed, not built for this platform), `loadNativeParser` says why and
 * callers keep the WASM runtime.
 */
import { createRequire } from "node:module";
import type { Query, Tree } from "web-tree-sitter";
import type { CodeLanguage } from "./languages.js";
import type { CodeParser, LoadedLanguage } from "./parser-runtime.js";
import { readQuerySource } from "./parser-runtime.js";

/** The slice of the native API used here (the package is optional, so its types are not imported). */
interface NativeMatch {
  pattern: number;
  captures: Array<{ name: string; node: unknown }>;
}
interface NativeQuery {
  matches(node: unknown): NativeMatch[];
}
interface NativeTree {
  rootNode: unknown;
}
interface NativeParser {
  setLanguage(language: unknown): void;
  parse(source: string): NativeTree;
}
interface NativeModule {
  new (): NativeParser;
  Query: new (language: unknown, source: string) => NativeQuery;
}

/** The native runtime, or why it is unavailable. */
export type NativeParserResult = { parser: CodeParser } | { unavailable: string };

const require = createRequire(import.meta.url);

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0] ?? error.message : String(error);
}

/**
 * The grammar object a grammar package's binding exports for a language.
 * Imported, not required: some bindings are ES modules with top-level await.
 */
async function nativeGrammar(language: CodeLanguage): Promise<unknown> {
  const imported = (await import(language.wasmPackage)) as { default?: Record<string, unknown> };
  const binding = imported.default ?? (imported as Record<string, unknown>);
  const name = language.wasmFile.replace(/^tree-sitter-/, "").replace(/\.wasm$/, "");
  return binding[name] ?? binding;
}

/** Presents a native query as the WASM `Query` the extractor reads (`patternIndex`). */
function queryAdapter(native: NativeQuery): Query {
  const adapter = {
    matches: (node: unknown) => native.matches(node).map((m) => ({ patternIndex: m.pattern, captures: m.captures })),
  };
  return adapter as unknown as Query;
}

/** Presents a native tree as a WASM `Tree`: the same node API, and a `delete` with nothing to free. */
function treeAdapter(native: NativeTree): Tree {
  return { rootNode: native.rootNode, delete: () => undefined } as unknown as Tree;
}

async function loadLanguage(Parser: NativeModule, language: CodeLanguage): Promise<LoadedLanguage> {
  const grammar = await nativeGrammar(language);
  const query = new Parser.Query(grammar, await readQuerySource(language));
  const parser = new Parser();
  parser.setLanguage(grammar);
  return { language, query: queryAdapter(query), parse: (source) => treeAdapter(parser.parse(source)) };
}

/**
 * Loads the native runtime and checks that it parses and queries, or answers
 * why it cannot be used. Languages load on first use, as with WASM.
 */
export async function loadNativeParser(probe: CodeLanguage): Promise<NativeParserResult> {
  let Parser: NativeModule;
  try {
    Parser = require("tree-sitter") as NativeModule;
  } catch (error) {
    return { unavailable: `the tree-sitter package does not load: ${describe(error)}` };
  }
  const loaded = new Map<string, Promise<LoadedLanguage>>();
  const parser: CodeParser = {
    load(language) {
      let entry = loaded.get(language.id);
      if (!entry) {
        entry = loadLanguage(Parser, language);
        entry.catch(() => loaded.delete(language.id));
        loaded.set(language.id, entry);
      }
      return entry;
    },
  };
  try {
    (await parser.load(probe)).parse("");
  } catch (error) {
    return { unavailable: `the native ${probe.id} grammar does not load: ${describe(error)}` };
  }
  return { parser };
}
