/**
 * Localisation as SWE-bench Lite figures are published (LocAgent, SweRank):
 * a method ranks files and functions; Acc@k counts an instance as found when
 * every gold file (function) is within the top k. Gold functions come from
 * hunk headers and are not class-qualified, so a ranked declaration matches
 * one when it sits in the gold file and its last name segment is the gold
 * name.
 */

/** A ranked declaration: its file and qualified name (`Class.method`). */
export interface RankedFunction {
  path: string;
  symbol: string;
}

/** Declaration kinds ranked as "functions": what a hunk header can name. */
export const FUNCTION_KINDS: ReadonlySet<string> = new Set(["function", "method", "constructor", "class"]);

/** The pack shape read here (a subset of code_context_pack's answer). */
export interface PackLike {
  declarations: ReadonlyArray<{ symbol: string; kind: string; filepath: string }>;
  files: ReadonlyArray<{ filepath: string; reason: string }>;
}

/** `files` rows that are not a relevance judgement of the file itself. */
const NOT_RANKED = new Set(["test", "duplicate"]);

/**
 * The pack's file ranking, read as bench/eval-code.ts reads it: the `files`
 * list in its order (tests of packed declarations and duplicate copies left
 * out), then the files of its declarations not yet named.
 */
export function packFileRanking(pack: PackLike): string[] {
  const seen = new Set<string>();
  for (const f of pack.files) if (!NOT_RANKED.has(f.reason)) seen.add(f.filepath);
  for (const d of pack.declarations) seen.add(d.filepath);
  return [...seen];
}

/**
 * Files in the order an agent reading the pack top to bottom meets them:
 * each declaration's file at its first declaration, then the `files` list's
 * other paths (tests and duplicates left out here too).
 */
export function packDeclarationFileRanking(pack: PackLike): string[] {
  const seen = new Set<string>();
  for (const d of pack.declarations) seen.add(d.filepath);
  for (const f of pack.files) if (!NOT_RANKED.has(f.reason)) seen.add(f.filepath);
  return [...seen];
}

/** The pack's functions, methods and classes in pack order. */
export function packFunctionRanking(pack: PackLike): RankedFunction[] {
  return pack.declarations.filter((d) => FUNCTION_KINDS.has(d.kind)).map((d) => ({ path: d.filepath, symbol: d.symbol }));
}

const simpleName = (symbol: string) => symbol.split(".").at(-1) ?? symbol;

/** True when every gold file is among the first `k` ranked files. */
export function fileHit(ranked: readonly string[], gold: readonly string[], k: number): boolean {
  const top = new Set(ranked.slice(0, k));
  return gold.length > 0 && gold.every((g) => top.has(g));
}

/** True when every gold function is matched by one of the first `k` ranked functions. */
export function functionHit(ranked: readonly RankedFunction[], gold: ReadonlyArray<{ path: string; name: string }>, k: number): boolean {
  const top = ranked.slice(0, k);
  return gold.length > 0 && gold.every((g) => top.some((f) => f.path === g.path && simpleName(f.symbol) === g.name));
}

/** Rank (0-based) of the first gold file, or undefined when absent. */
export function firstGoldRank(ranked: readonly string[], gold: readonly string[]): number | undefined {
  const i = ranked.findIndex((p) => gold.includes(p));
  return i < 0 ? undefined : i;
}
