import type { Queryable } from "../../store/db.js";
import { filesByKeys } from "../../store/code/code-graph-reads.js";
import { usagesInTestLikeFiles } from "../../store/code/code-pack-reads.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";
import { resolveSites } from "../../graph/code/resolve-sites.js";
import { isTestPath } from "./test-paths.js";

/** A test file of packed declarations. */
export interface TestFile {
  fileId: string;
  path: string;
}

/** Packed declarations whose tests are looked for, best first: the rest add little. */
const MAX_TESTED = 20;
/** Usages of one name read from test files. */
const USAGES_PER_NAME = 200;
/** Test files listed at most. */
const MAX_TESTS = 10;
const CODE_EXTENSION = /\.(d\.ts|[cm]?[jt]sx?|py|pyi|rb|rs|go|java|php|cs|sh|bash)$/i;

/** The keys a test of `path` answers to by name: `a.test`, `a.spec`, `test_a`, `a_test` (module keys are lower-case tails). */
function testKeys(path: string): string[] {
  const base = (path.split("/").at(-1) ?? "").replace(CODE_EXTENSION, "").toLowerCase();
  return base ? [`${base}.test`, `${base}.spec`, `test_${base}`, `${base}_test`] : [];
}

/**
 * Test files of these declarations (in pack order): files under a test
 * path whose usages resolve to one of them, and test files named after a
 * declaration's file. Ranked by the worth of what they test (earlier
 * declarations count more); the declarations' own files are left out.
 */
export async function testFilesOf(q: Queryable, projectIds: readonly string[], declarations: readonly DeclarationBrief[]): Promise<TestFile[]> {
  const tested = declarations.filter((d) => !isTestPath(d.path)).slice(0, MAX_TESTED);
  if (tested.length === 0) return [];
  const rankOf = new Map(tested.map((d, i) => [d.symbolId, i]));
  const worth = new Map<string, { path: string; score: number }>();
  const add = (fileId: string, path: string, score: number) => {
    const had = worth.get(fileId);
    worth.set(fileId, { path, score: (had?.score ?? 0) + score });
  };
  const sites = (await usagesInTestLikeFiles(q, projectIds, [...new Set(tested.map((d) => d.name))], USAGES_PER_NAME)).filter((u) => isTestPath(u.path));
  const targets = await resolveSites(q, projectIds, sites);
  const counted = new Set<string>();
  sites.forEach((s, i) => {
    const rank = rankOf.get(targets[i] ?? "");
    if (rank === undefined || counted.has(`${s.fileId}\u0000${targets[i]}`)) return;
    counted.add(`${s.fileId}\u0000${targets[i]}`);
    add(s.fileId, s.path, 1 / (1 + rank));
  });
  const fileRank = new Map<string, number>();
  tested.forEach((d, i) => fileRank.set(d.path, Math.min(fileRank.get(d.path) ?? i, i)));
  const keyOwner = new Map<string, number>();
  for (const [path, rank] of fileRank) for (const k of testKeys(path)) keyOwner.set(k, Math.min(keyOwner.get(k) ?? rank, rank));
  for (const f of await filesByKeys(q, projectIds, [...keyOwner.keys()])) {
    if (isTestPath(f.path)) add(f.fileId, f.path, 1 / (1 + (keyOwner.get(f.key) ?? 0)));
  }
  const own = new Set(declarations.map((d) => d.fileId));
  return [...worth]
    .filter(([fileId]) => !own.has(fileId))
    .sort((a, b) => b[1].score - a[1].score || (a[1].path < b[1].path ? -1 : 1))
    .slice(0, MAX_TESTS)
    .map(([fileId, w]) => ({ fileId, path: w.path }));
}
