/**
 * The tree-sitter runtime behind one small interface. The WASM runtime is
 * initialised once; each language's grammar, parser and compiled query are
 * loaded on first use and cached for the life of the process.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Language, Parser, Query, type Tree } from "web-tree-sitter";
import type { CodeLanguage } from "./languages.js";

/** A language ready to parse and query. */
export interface LoadedLanguage {
  readonly language: CodeLanguage;
  /** The extraction query (all of the language's query files). */
  readonly query: Query;
  /** Parses source text; the caller must `delete()` the tree. */
  parse(source: string): Tree | undefined;
}

/** Loads languages; the only door to the parsing runtime. */
export interface CodeParser {
  load(language: CodeLanguage): Promise<LoadedLanguage>;
}

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
// Compiled output lives in dist/src/code; the .scm files stay in the source tree.
const QUERY_DIRS = [join(here, "queries"), join(here, "..", "..", "..", "src", "code", "queries")];

let runtime: Promise<void> | undefined;
const loaded = new Map<string, Promise<LoadedLanguage>>();

function initRuntime(): Promise<void> {
  runtime ??= Parser.init();
  return runtime;
}

/** Absolute path of a grammar package's `.wasm` file. */
export function grammarWasmPath(language: CodeLanguage): string {
  return join(dirname(require.resolve(`${language.wasmPackage}/package.json`)), language.wasmFile);
}

/** The extraction query of a language: its query files, concatenated. */
export async function readQuerySource(language: CodeLanguage): Promise<string> {
  const dir = QUERY_DIRS.find((candidate) => existsSync(join(candidate, language.queryFiles[0] ?? "")));
  if (!dir) throw new Error(`query files for ${language.id} not found`);
  const parts = await Promise.all(language.queryFiles.map((file) => readFile(join(dir, file), "utf8")));
  return parts.join("\n");
}

async function loadLanguage(language: CodeLanguage): Promise<LoadedLanguage> {
  await initRuntime();
  const grammar = await Language.load(grammarWasmPath(language));
  const query = new Query(grammar, await readQuerySource(language));
  const parser = new Parser();
  parser.setLanguage(grammar);
  return {
    language,
    query,
    parse: (source) => parser.parse(source) ?? undefined,
  };
}

/** The process-wide parser: grammars and queries load once per language. */
export const codeParser: CodeParser = {
  load(language) {
    let entry = loaded.get(language.id);
    if (!entry) {
      entry = loadLanguage(language);
      // A failed load is retried on the next call instead of being cached.
      entry.catch(() => loaded.delete(language.id));
      loaded.set(language.id, entry);
    }
    return entry;
  },
};
