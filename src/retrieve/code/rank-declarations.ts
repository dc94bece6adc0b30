import { pathsOfFiles } from "../../store/code/code-graph-reads.js";
import type { Queryable } from "../../store/db.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";
import type { SymbolFieldWeights } from "../../store/search/symbol-search.js";
import { declarationGraph, declarationNode, fileNode } from "./declaration-graph.js";
import type { DeclarationGraph } from "./declaration-graph.js";
import type { FileReason } from "./packed-rows.js";
import type { Seeds } from "./resolve-seeds.js";
import { taskMatches } from "./task-matches.js";
import type { TaskMatches } from "./task-matches.js";
import { taskTerms } from "./task-terms.js";
import { isTestPath } from "./test-paths.js";
import { walkProximity } from "../page-rank.js";

/** How the signals are mixed; every weight multiplies a signal scaled to 0..1. */
export interface RankWeights {
  /** A declaration the task names exactly. */
  named: number;
  /** A declaration in a file the task names by path or module. */
  namedFile: number;
  /** The graph walk from the task's matches. */
  walk: number;
  /** The graph walk from the seeds. */
  seeds: number;
  /** The standing of the declaration's file (its best declarations together). */
  file: number;
  /** Whole-file BM25 in a file's standing. */
  fileText: number;
  /** Factor on the scores of test files: a task asks for the code more often than for its tests. */
  tests: number;
  /** Declarations the walk starts from. */
  anchors: number;
  restart: number;
  /** BM25 field weights of the declaration index. */
  fields?: SymbolFieldWeights;
}

/** Measured on the code evaluation's tuning split (bench/eval-code.ts). */
export const RANK_WEIGHTS: RankWeights = { named: 1, namedFile: 1, walk: 0.5, seeds: 1, file: 0.5, fileText: 0.5, tests: 0.5, anchors: 30, restart: 0.3 };

/** Files ranked at most: a pack lists far fewer. */
const MAX_FILES = 50;


export interface RankedDeclaration {
  declaration: DeclarationBrief;
  score: number;
}

export interface RankedFile {
  fileId: string;
  path: string;
  score: number;
  reason: FileReason;
}

/** Declarations and files by relevance to a task, seeds and their files left out. */
export interface Ranking {
  declarations: RankedDeclaration[];
  files: RankedFile[];
}

function baseScores(m: TaskMatches, w: RankWeights): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, d] of m.declarations) {
    out.set(id, (m.lexical.get(id) ?? 0) + w.named * (m.named.get(id) ?? 0) + w.namedFile * (m.files.get(d.fileId) ?? 0));
  }
  return out;
}

function topIds(scores: ReadonlyMap<string, number>, n: number): string[] {
  return [...scores].sort((a, b) => b[1] - a[1]).slice(0, n).map(([id]) => id);
}

/** Where the task's walk restarts: its anchors, by score. */
function taskStart(anchors: readonly string[], base: ReadonlyMap<string, number>): Map<string, number> {
  return new Map(anchors.map((id) => [declarationNode(id), base.get(id) ?? 0]));
}

/** Where the seeds' walk restarts: each seed alike. */
function seedStart(seeds: Seeds): Map<string, number> {
  return new Map([...seeds.declarations.map((d) => declarationNode(d.symbolId)), ...seeds.files.map((f) => fileNode(f.fileId))].map((n) => [n, 1]));
}

function scaledMax(values: Iterable<[string, number]>): Map<string, number> {
  const list = [...values];
  const top = Math.max(0, ...list.map(([, v]) => v));
  return new Map(list.map(([k, v]) => [k, top > 0 ? v / top : 0]));
}

/** How close the walks from the task and from the seeds came to each node. */
function nearness(graph: DeclarationGraph, anchors: readonly string[], base: ReadonlyMap<string, number>, seeds: Seeds, w: RankWeights) {
  const fromTask = walkProximity(graph.edges, taskStart(anchors, base), w.restart);
  const seedNodes = seedStart(seeds);
  const fromSeeds = seedNodes.size > 0 ? walkProximity(graph.edges, seedNodes, w.restart, new Set(seedNodes.keys())) : new Map<string, number>();
  return (node: string) => w.walk * (fromTask.get(node) ?? 0) + w.seeds * (fromSeeds.get(node) ?? 0);
}

/** A file's standing: its best three declarations, each counting half the one before, the path it is named by, the walks' visits. */
function fileScores(scores: ReadonlyMap<string, number>, graph: DeclarationGraph, m: TaskMatches, near: (node: string) => number, w: RankWeights) {
  const perFile = new Map<string, number[]>();
  for (const [id, s] of scores) {
    const d = graph.declarations.get(id);
    if (d) perFile.set(d.fileId, [...(perFile.get(d.fileId) ?? []), s]);
  }
  const fileIds = new Set([...perFile.keys(), ...m.files.keys(), ...graph.importedFiles]);
  const out = new Map<string, number>();
  for (const fileId of fileIds) {
    const best = (perFile.get(fileId) ?? []).sort((a, b) => b - a).slice(0, 3).reduce((sum, s, i) => sum + s / 2 ** i, 0);
    const text = w.fileText * (m.fileText.get(fileId) ?? 0);
    out.set(fileId, best + text + w.namedFile * (m.files.get(fileId) ?? 0) + near(fileNode(fileId)));
  }
  return scaledMax(out);
}

/** Test files' scores scaled down; their paths come from the declarations or the file reads. */
function demoteTests<T extends string>(scores: Map<T, number>, pathOf: (key: T) => string | undefined, factor: number): Map<T, number> {
  for (const [key, score] of scores) {
    const path = pathOf(key);
    if (path !== undefined && isTestPath(path)) scores.set(key, score * factor);
  }
  return scores;
}

function reasonOf(fileId: string, matched: ReadonlySet<string>, graph: DeclarationGraph): FileReason {
  if (matched.has(fileId)) return "match";
  return graph.importedFiles.has(fileId) ? "imports" : "referenced";
}

/** Declarations and files scored by the task's evidence and the walks. */
async function scoreDeclarations(q: Queryable, projectIds: readonly string[], task: string, seeds: Seeds, w: RankWeights) {
  const m = await taskMatches(q, projectIds, taskTerms(task), w.fields);
  const base = baseScores(m, w);
  const anchorIds = topIds(base, w.anchors);
  const anchors = [...anchorIds.map((id) => m.declarations.get(id)!), ...seeds.declarations];
  const graph = await declarationGraph(q, projectIds, anchors, [...seeds.files.map((f) => f.fileId), ...m.files.keys()]);
  for (const [id, d] of m.declarations) if (!graph.declarations.has(id)) graph.declarations.set(id, d);
  const near = nearness(graph, anchorIds, base, seeds, w);
  const raw = new Map([...graph.declarations.keys()].map((id) => [id, (base.get(id) ?? 0) + near(declarationNode(id))]));
  const filePaths = new Map([...graph.declarations.values()].map((d) => [d.fileId, d.path]));
  const files = demoteTests(fileScores(raw, graph, m, near, w), (f) => filePaths.get(f), w.tests);
  const scores = demoteTests(raw, (id) => graph.declarations.get(id)?.path, w.tests);
  const matched = new Set([...[...base.keys()].map((id) => m.declarations.get(id)!.fileId), ...m.files.keys()]);
  return { graph, scores, files, matched };
}

/**
 * Ranks declarations for a coding task: BM25 over each declaration's whole
 * text, exact names and paths the task mentions, then a personalized
 * PageRank over references and imports from those matches and the seeds,
 * and the standing of each declaration's file. Seeds and the declarations
 * of seed files are left out.
 */
export async function rankDeclarations(q: Queryable, projectIds: readonly string[], task: string, seeds: Seeds, w: RankWeights = RANK_WEIGHTS): Promise<Ranking> {
  const { graph, scores, files, matched } = await scoreDeclarations(q, projectIds, task, seeds, w);
  const seedFiles = new Set(seeds.files.map((f) => f.fileId));
  const seedIds = new Set(seeds.declarations.map((d) => d.symbolId));
  const declarations = [...graph.declarations.values()]
    .filter((d) => !seedIds.has(d.symbolId) && !seedFiles.has(d.fileId))
    .map((d) => ({ declaration: d, score: (scores.get(d.symbolId) ?? 0) + w.file * (files.get(d.fileId) ?? 0) }))
    .sort((a, b) => b.score - a.score || (a.declaration.symbolId < b.declaration.symbolId ? -1 : 1));
  const ranked = [...files].filter(([f]) => !seedFiles.has(f)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_FILES);
  const paths = new Map([...graph.declarations.values()].map((d) => [d.fileId, d.path]));
  const missing = ranked.map(([f]) => f).filter((f) => !paths.has(f));
  for (const [f, p] of await pathsOfFiles(q, missing)) paths.set(f, p);
  return {
    declarations,
    files: ranked.flatMap(([fileId, score]) => {
      const path = paths.get(fileId);
      return path ? [{ fileId, path, score, reason: reasonOf(fileId, matched, graph) }] : [];
    }),
  };
}
