import { importEdgesOf, pathsOfFiles } from "../../store/code/code-graph-reads.js";
import type { Queryable } from "../../store/db.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";
import { declarationsByIds } from "../../store/code/declaration-reads.js";
import { declarationIdsOfFiles, importAndDeclarationCounts } from "../../store/code/code-pack-reads.js";
import type { SymbolFieldWeights } from "../../store/search/symbol-search.js";
import { declarationGraph, declarationNode, fileNode } from "./declaration-graph.js";
import type { DeclarationGraph } from "./declaration-graph.js";
import type { FileReason } from "./packed-rows.js";
import type { Seeds } from "./resolve-seeds.js";
import { taskMatches } from "./task-matches.js";
import type { TaskMatches } from "./task-matches.js";
import { isTask, taskTerms } from "./task-terms.js";
import { TASK_RANK_WEIGHTS } from "./rank-files.js";
import { isPeripheralPath, isTestPath } from "./test-paths.js";
import { diversify } from "./diversify.js";
import { fileCopies } from "./duplicate-files.js";
import type { FileCopy } from "./duplicate-files.js";
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
  /** Factor on files outside the main source (scripts, examples, docs, benchmarks). */
  peripheral: number;
  /** What bodies use: declarations whose bodies use a name the task writes as code (see body-uses.ts). */
  uses: number;
  /** In a task, a declaration whose name ends in `_` and a name the task writes (`_print_Integral` for `Integral`): a dispatch method, counted as named (see task-matches.ts). */
  dispatch: number;
  /** In a task, the constructor of a class it writes as a call (`Blueprint(…)`), counted as named at this share of the class (see task-matches.ts). */
  constructors: number;
  /** In a task, a function a pasted traceback's frame names in that frame's file, counted as named: the innermost project frame at this weight (see task-matches.ts). */
  frames: number;
  /** Each traceback frame further out counts this times the one inside it. */
  frameDecay: number;
  /** In a task, a module of a package it names by module path (`sphinx.ext.napoleon` → `napoleon/docstring.py`), as a share of a file named by path, split among the package's modules (see task-matches.ts). */
  packages: number;
  /** Extra factor on files whose path names the scope of a conventional commit subject (`fix(client): …`). */
  scope: number;
  /** How close a re-exporting file (an index or barrel) comes to the best file it re-exports, when the task is about exports. */
  barrel: number;
  /** Diversification: a task term's worth after each pick holding it, a file's after each pick in it (see diversify.ts). */
  termDecay: number;
  fileDecay: number;
  /** How much of a score falls with its repeated terms beyond their own parts (0..1, see diversify.ts). */
  decayWhole: number;
  /** Declarations the walk starts from. */
  anchors: number;
  restart: number;
  /** BM25 field weights of the declaration index. */
  fields?: SymbolFieldWeights;
}

/** Measured on the code evaluation's tuning split (bench/eval-code.ts). */
export const RANK_WEIGHTS: RankWeights = {
  named: 1, namedFile: 1, walk: 0.5, seeds: 1, file: 0.5, fileText: 0.5, tests: 0.5, peripheral: 0.3, uses: 0.5, dispatch: 1, constructors: 1, frames: 1, frameDecay: 0.5, packages: 1, scope: 0.5, barrel: 0.95, termDecay: 0.5, fileDecay: 0.85, decayWhole: 1,
  anchors: 30, restart: 0.3,
  // Names weigh half what the full-text index gives them elsewhere: a name match must not outweigh what bodies say.
  fields: [2, 2, 1, 1.5, 1],
};

/** Files ranked at most: a pack lists fewer. */
const MAX_FILES = 50;
/** Declarations ranked at most: more than any budget a caller is likely to give holds. */
const MAX_DECLARATIONS = 600;
/** Declarations scoring under this share of the best are not ranked (every cut tried keeps more than 0.05). */
const MIN_SHARE = 0.05;


export interface RankedDeclaration {
  declaration: DeclarationBrief;
  /** Its own relevance (what the cut judges). */
  score: number;
  /** What it adds where it is ranked: its score less what earlier rows already cover (diversify.ts). */
  worth: number;
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
  /** Copies of ranked files (content equal but for imports), left out of both lists: copy file id → the kept file. */
  copies: Map<string, FileCopy>;
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

/** True when one of the path's folder or file names holds a scope the task names. */
function inScope(path: string, scopes: readonly string[]): boolean {
  if (scopes.length === 0) return false;
  const parts = path.toLowerCase().split("/");
  return scopes.some((s) => parts.some((p) => p === s || (s.length >= 4 && p.includes(s))));
}

/**
 * The factor on a path's scores: tests and peripheral folders count less
 * than the main source; a path in the task's commit scope counts more.
 */
function pathFactor(path: string | undefined, w: RankWeights, scopes: readonly string[]): number {
  if (path === undefined) return 1;
  const place = isTestPath(path) ? w.tests : isPeripheralPath(path) ? w.peripheral : 1;
  return place * (inScope(path, scopes) ? 1 + w.scope : 1);
}

/** Scores scaled by their paths' factors; the paths come from the declarations or the file reads. */
function demoteTests<T extends string>(scores: Map<T, number>, pathOf: (key: T) => string | undefined, w: RankWeights, scopes: readonly string[]): Map<T, number> {
  for (const [key, score] of scores) scores.set(key, score * pathFactor(pathOf(key), w, scopes));
  return scores;
}

function reasonOf(fileId: string, matched: ReadonlySet<string>, graph: DeclarationGraph): FileReason {
  if (matched.has(fileId)) return "match";
  return graph.importedFiles.has(fileId) ? "imports" : "referenced";
}

/** Declarations and files scored by the task's evidence and the walks. */
async function scoreDeclarations(q: Queryable, projectIds: readonly string[], task: string, seeds: Seeds, w: RankWeights) {
  // A task's pasted blocks count as its file ranking reads them (rank-files.ts, `pasted`).
  const terms = taskTerms(task, isTask(task) ? TASK_RANK_WEIGHTS.pasted : 1);
  const m = await taskMatches(q, projectIds, terms, w.fields, w.uses, w.dispatch, isTask(task) ? w.constructors : 0, { weight: w.frames, decay: w.frameDecay }, isTask(task) ? w.packages : 0);
  const base = baseScores(m, w);
  const anchorIds = topIds(base, w.anchors);
  const anchors = [...anchorIds.map((id) => m.declarations.get(id)!), ...seeds.declarations];
  const graph = await declarationGraph(q, projectIds, anchors, [...seeds.files.map((f) => f.fileId), ...m.files.keys()]);
  for (const [id, d] of m.declarations) if (!graph.declarations.has(id)) graph.declarations.set(id, d);
  const near = nearness(graph, anchorIds, base, seeds, w);
  const raw = new Map([...graph.declarations.keys()].map((id) => [id, (base.get(id) ?? 0) + near(declarationNode(id))]));
  const filePaths = new Map([...graph.declarations.values()].map((d) => [d.fileId, d.path]));
  const files = demoteTests(fileScores(raw, graph, m, near, w), (f) => filePaths.get(f), w, terms.scopes);
  const scores = demoteTests(raw, (id) => graph.declarations.get(id)?.path, w, terms.scopes);
  const matched = new Set([...[...base.keys()].map((id) => m.declarations.get(id)!.fileId), ...m.files.keys()]);
  if (ABOUT_EXPORTS.test(task)) await liftBarrels(q, files, w.barrel);
  return { graph, scores, files, matched, m, scopes: terms.scopes };
}

/** Files passing `keep`, best first (ties by id). */
function byScore(files: ReadonlyMap<string, number>, keep: (fileId: string) => boolean): Array<[string, number]> {
  return [...files].filter(([f]) => keep(f)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/**
 * Ranks declarations for a coding task: BM25 over each declaration's whole
 * text, exact names and paths the task mentions, then a personalized
 * PageRank over references and imports from those matches and the seeds,
 * and the standing of each declaration's file. Seeds and the declarations
 * of seed files are left out.
 */
export async function rankDeclarations(q: Queryable, projectIds: readonly string[], task: string, seeds: Seeds, w: RankWeights = RANK_WEIGHTS): Promise<Ranking> {
  const { graph, scores, files, matched, m, scopes } = await scoreDeclarations(q, projectIds, task, seeds, w);
  const seedFiles = new Set(seeds.files.map((f) => f.fileId));
  const seedIds = new Set(seeds.declarations.map((d) => d.symbolId));
  const paths = new Map([...graph.declarations.values()].map((d) => [d.fileId, d.path]));
  const topFiles = byScore(files, (f) => !seedFiles.has(f)).slice(0, MAX_FILES * 2);
  for (const [f, p] of await pathsOfFiles(q, topFiles.map(([f]) => f).filter((f) => !paths.has(f)))) paths.set(f, p);
  const copies = await collapseCopies(q, projectIds, graph, scores, files, paths, topFiles.map(([f]) => f));
  const candidates = [...graph.declarations.values()]
    .filter((d) => !seedIds.has(d.symbolId) && !seedFiles.has(d.fileId) && !copies.has(d.fileId) && (scores.get(d.symbolId) ?? 0) > 0)
    .map((d) => {
      const factor = pathFactor(d.path, w, scopes);
      const terms = new Map([...(m.termsOf.get(d.symbolId) ?? new Map<string, number>())].map(([t, v]) => [t, v * factor]));
      return { item: d, file: d.fileId, score: (scores.get(d.symbolId) ?? 0) + w.file * (files.get(d.fileId) ?? 0), terms };
    });
  liftTermBests(candidates);
  // Rows this far below the best never pass a relevance cut: ordering them would only cost time.
  const floor = MIN_SHARE * Math.max(0, ...candidates.map((c) => c.score));
  const declarations = diversify(candidates.filter((c) => c.score >= floor), { term: w.termDecay, file: w.fileDecay, whole: w.decayWhole }, MAX_DECLARATIONS).map((r) => ({ declaration: r.item, score: r.score, worth: r.worth }));
  // A kept file took its copies' standing: rank the files again.
  const ranked = copies.size === 0 ? topFiles.slice(0, MAX_FILES) : byScore(files, (f) => !seedFiles.has(f) && !copies.has(f)).slice(0, MAX_FILES);
  for (const [f, p] of await pathsOfFiles(q, ranked.map(([f]) => f).filter((f) => !paths.has(f)))) paths.set(f, p);
  return {
    declarations,
    files: ranked.flatMap(([fileId, score]) => {
      const path = paths.get(fileId);
      return path ? [{ fileId, path, score, reason: reasonOf(fileId, matched, graph) }] : [];
    }),
    copies,
  };
}

/**
 * Every matched task term is represented: a term's clear best match (no
 * runner-up within `RUNNER_UP` of it) is scored at least as that term's
 * best part stands to the strongest term's best part, scaled to the top
 * score. So the one declaration whose body holds a rare word
 * ("instanceof") is judged against the strongest evidence of its own term,
 * not against the sum of names that repeat a common one ("constructor" on
 * every class).
 */
function liftTermBests(candidates: Array<{ score: number; terms: ReadonlyMap<string, number> }>): void {
  const best = new Map<string, { at: number; part: number; second: number }>();
  candidates.forEach((c, at) => {
    for (const [t, part] of c.terms) {
      const b = best.get(t) ?? { at: -1, part: 0, second: 0 };
      if (part > b.part) best.set(t, { at, part, second: b.part });
      else if (part > b.second) best.set(t, { ...b, second: part });
    }
  });
  const topPart = Math.max(0, ...[...best.values()].map((b) => b.part));
  const topScore = Math.max(0, ...candidates.map((c) => c.score));
  if (topPart <= 0) return;
  for (const b of best.values()) {
    if (b.at < 0 || b.second >= RUNNER_UP * b.part) continue;
    const c = candidates[b.at]!;
    c.score = Math.max(c.score, (topScore * b.part) / topPart);
  }
}

/** A runner-up this close to a term's best match makes the best no clear one. */
const RUNNER_UP = 0.8;

/** A task about what a module exports: its fix is often in the index or barrel file that re-exports. */
const ABOUT_EXPORTS = /\b(export|exports|exported|exporting|re-?exports?|expose|exposes|exposed|exposing)\b/i;
/** Files re-exporting the best files are looked for among these many of them. */
const BARREL_SOURCES = 5;

/**
 * Lifts the files that re-export one of the best files (an `index` file,
 * or one that imports far more than it declares) to `factor` of that
 * file's score, when they stand lower.
 */
async function liftBarrels(q: Queryable, files: Map<string, number>, factor: number): Promise<void> {
  const best = [...files].sort((a, b) => b[1] - a[1]).slice(0, BARREL_SOURCES);
  const edges = await importEdgesOf(q, best.map(([f]) => f), 400);
  const importers = [...new Set(edges.map((e) => e.fromFileId))];
  const shapes = await importAndDeclarationCounts(q, importers);
  const scoreOf = new Map(best);
  for (const e of edges) {
    const shape = shapes.get(e.fromFileId);
    const target = scoreOf.get(e.toFileId);
    if (!shape || target === undefined) continue;
    const barrel = /(^|\/)index\.[cm]?[jt]sx?$/.test(shape.path) || (shape.imports >= 3 && shape.declarations * 4 <= shape.imports);
    if (barrel) files.set(e.fromFileId, Math.max(files.get(e.fromFileId) ?? 0, factor * target));
  }
}

/**
 * Finds copies among the ranked files and their declarations' files, and
 * folds each copy into the file kept in its place: the kept file and each
 * of its declarations take the better score of the two; the copy's
 * declarations leave the graph. Answers the copies of ranked files.
 */
async function collapseCopies(
  q: Queryable,
  projectIds: readonly string[],
  graph: DeclarationGraph,
  scores: Map<string, number>,
  files: Map<string, number>,
  paths: Map<string, string>,
  rankedFiles: readonly string[],
): Promise<Map<string, FileCopy>> {
  const considered = new Map([...new Set([...rankedFiles, ...[...graph.declarations.values()].map((d) => d.fileId)])].flatMap((f) => (paths.has(f) ? [[f, paths.get(f)!] as const] : [])));
  const copies = await fileCopies(q, projectIds, considered);
  if (copies.size === 0) return copies;
  const kept = [...new Set([...copies.values()].map((c) => c.canonicalFileId))];
  const keptIds = new Map<string, string>();
  for (const d of await declarationIdsOfFiles(q, kept)) keptIds.set(`${d.fileId}\u0000${d.qualifiedName}`, d.symbolId);
  const missing = [...keptIds.values()].filter((id) => !graph.declarations.has(id));
  for (const d of await declarationsByIds(q, projectIds, missing)) graph.declarations.set(d.symbolId, d);
  for (const d of [...graph.declarations.values()]) {
    const copy = copies.get(d.fileId);
    if (!copy) continue;
    const target = keptIds.get(`${copy.canonicalFileId}\u0000${d.qualifiedName}`);
    if (target) scores.set(target, Math.max(scores.get(target) ?? 0, scores.get(d.symbolId) ?? 0));
    graph.declarations.delete(d.symbolId);
  }
  for (const c of copies.values()) {
    files.set(c.canonicalFileId, Math.max(files.get(c.canonicalFileId) ?? 0, files.get(c.fileId) ?? 0));
    paths.set(c.canonicalFileId, c.canonicalPath);
  }
  return copies;
}
