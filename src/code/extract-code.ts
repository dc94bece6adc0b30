/**
 * Code intelligence for one file: parse with tree-sitter, run the language's
 * extraction query once, and derive declarations, references and imports.
 * Pure (no store); never throws for a file's content, so one bad file never
 * stops an index.
 */
import type { Tree } from "web-tree-sitter";
import type { CodeFacts } from "./code-facts.js";
import { buildDeclarations, type LocatedDeclaration } from "./declarations.js";
import { buildImports } from "./imports.js";
import { codeLanguageForPath, type CodeLanguage } from "./languages.js";
import { codeParser, type CodeParser } from "./parser-runtime.js";
import { collectCaptures, type CaptureSets } from "./query-captures.js";
import { buildReferences } from "./references.js";

export { languageForPath } from "./languages.js";

/**
 * Files larger than this (in UTF-16 code units, about 2 MB of ASCII) are not
 * parsed: they are generated or vendored far more often than written, and
 * would dominate an index's time and memory. Their facts are empty with
 * the problem `too_large`.
 */
export const MAX_SOURCE_CHARS = 2 * 1024 * 1024;

function emptyFacts(language: string, problems?: string[]): CodeFacts {
  const facts: CodeFacts = { language, declarations: [], references: [], imports: [] };
  if (problems && problems.length > 0) facts.problems = problems;
  return facts;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs one stage; a failure is recorded and the stage's fallback used. */
function stage<T>(name: string, problems: string[], fallback: T, run: () => T): T {
  try {
    return run();
  } catch (error) {
    problems.push(`${name} failed: ${describe(error)}`);
    return fallback;
  }
}

function factsFromTree(tree: Tree, sets: CaptureSets, language: CodeLanguage, path: string, source: string): CodeFacts {
  const problems: string[] = [];
  if (tree.rootNode.hasError) problems.push("syntax_errors");
  const none: LocatedDeclaration[] = [];
  const declarations = stage("declarations", problems, none, () =>
    buildDeclarations(sets, language, path, source),
  );
  const references = stage("references", problems, { references: [], capped: false }, () =>
    buildReferences(sets, declarations),
  );
  if (references.capped) problems.push("references_capped");
  const imports = stage("imports", problems, [], () => buildImports(sets.imports, sets.importParts));
  const facts = emptyFacts(language.id, problems);
  facts.declarations = declarations.map((located) => located.declaration);
  facts.references = references.references;
  facts.imports = imports;
  return facts;
}

/**
 * Extracts declarations, references and imports from one source file.
 * Resolves to undefined when the path's language is unsupported; otherwise
 * to facts, partial ones (with `problems`) when the file is too large, does
 * not parse cleanly, or a stage fails. Never rejects for a file's content.
 * @param path project-relative path (part of every symbol id)
 * @param source the file's text
 * @param parser the runtime to use (the shared WASM runtime by default)
 */
export async function extractCode(
  path: string,
  source: string,
  parser: CodeParser = codeParser,
): Promise<CodeFacts | undefined> {
  const language = codeLanguageForPath(path);
  if (!language) return undefined;
  if (source.length > MAX_SOURCE_CHARS) return emptyFacts(language.id, ["too_large"]);
  let tree: Tree | undefined;
  try {
    const loaded = await parser.load(language);
    tree = loaded.parse(source);
    if (!tree) return emptyFacts(language.id, ["parse failed"]);
    const sets = collectCaptures(loaded.query, tree.rootNode);
    return factsFromTree(tree, sets, language, path, source);
  } catch (error) {
    return emptyFacts(language.id, [`extraction failed: ${describe(error)}`]);
  } finally {
    tree?.delete();
  }
}
