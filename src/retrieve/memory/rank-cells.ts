import type { CellHit, FileHit } from "../../store/search/lexical-search.js";

export interface RankedCell {
  cellId: string;
  fileId: string;
  factionId: string;
  text: string;
  score: number;
}

/** Weights of the fused score, tuned on the retrieval evaluation (bench/eval-scifact.ts). */
export interface FusionWeights {
  cell: number;
  document: number;
  graph: number;
  /** Documents matching the query expanded by pseudo-relevance feedback (see feedback-terms.ts). */
  feedback?: number;
}

/** Document-level signals beside whole-document BM25, each a ranked list of documents. */
export interface DocumentSignals {
  feedback?: readonly FileHit[];
}

/**
 * Chosen on SciFact's train split only (bench/eval-scifact.ts --tune, all
 * 809 train claims; the test split was not scored to choose): the best of
 * the grid cell 0.5–1.5 × graph 0.5–1 × feedback 0–6 at document 3, train
 * nDCG@10 0.7144 (R@100 0.9276) against 0.7103 (R@100 0.9307) for the
 * former cell 0.5, feedback 1, and 0.7040 for that without feedback (BM25
 * over whole documents 0.7006). The grid is a plateau; what it shows is
 * feedback's weight (mean over its six cell × graph points: 0.7068 at 0,
 * 0.7104 at 1, 0.7114 at 2, 0.7120 at 3, 0.7130 at 4, 0.7114 at 6): the
 * expanded query's ranking weighs a little more than the document's own,
 * as RM3's interpolation does at λ below one half. Gains this size are
 * near train's noise; test figures are in docs/benchmarks.md.
 */
export const DEFAULT_WEIGHTS: FusionWeights = { cell: 1.5, document: 3, graph: 1, feedback: 4 };

/**
 * Fuses the signals into one score per cell: its own BM25, its document's
 * BM25 (a claim is read in its document's context), its document's BM25 for
 * the query expanded by feedback, and its graph-walk mass, each scaled by
 * the best of its kind.
 */
export function fuseCells(
  hits: readonly CellHit[],
  files: readonly FileHit[],
  walk: ReadonlyMap<string, number>,
  weights: FusionWeights = DEFAULT_WEIGHTS,
  extra: DocumentSignals = {},
): RankedCell[] {
  const maxCell = Math.max(1e-9, ...hits.map((h) => h.score));
  const fileScore = new Map(files.map((f) => [f.fileId, f.score]));
  const maxFile = Math.max(1e-9, ...files.map((f) => f.score));
  const maxWalk = Math.max(1e-9, ...walk.values());
  const feedback = scaled(extra.feedback ?? []);
  const byId = new Map<string, RankedCell>();
  for (const h of hits) {
    const score =
      weights.cell * (h.score / maxCell) +
      weights.document * ((fileScore.get(h.fileId) ?? 0) / maxFile) +
      weights.graph * ((walk.get(h.cellId) ?? 0) / maxWalk) +
      (weights.feedback ?? 0) * (feedback.get(h.fileId) ?? 0);
    const prev = byId.get(h.cellId);
    if (!prev || prev.score < score) byId.set(h.cellId, { ...h, score });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.cellId.localeCompare(b.cellId));
}

/** A ranked list's scores divided by its best. */
function scaled(list: readonly FileHit[]): Map<string, number> {
  const top = Math.max(1e-9, ...list.map((f) => f.score));
  return new Map(list.map((f) => [f.fileId, f.score / top]));
}

/** Words of a text, for near-duplicate checks. */
function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
}

/**
 * Keeps redundant rows from crowding out others: at most `perFaction` cells
 * of one faction, no cell repeating a kept one word for word (same word
 * set), and no cell whose words mostly repeat a kept cell of the same file.
 */
export function dropRedundant(cells: readonly RankedCell[], perFaction = 3, similarity = 0.85): RankedCell[] {
  const perFactionCount = new Map<string, number>();
  const signatures = new Set<string>();
  const keptByFile = new Map<string, Array<Set<string>>>();
  const kept: RankedCell[] = [];
  for (const cell of cells) {
    const n = perFactionCount.get(cell.factionId) ?? 0;
    if (n >= perFaction) continue;
    const words = wordSet(cell.text);
    const signature = [...words].sort().join(" ");
    if (signatures.has(signature)) continue;
    const sameFile = keptByFile.get(cell.fileId) ?? [];
    if (sameFile.some((k) => similar(k, words, similarity))) continue;
    perFactionCount.set(cell.factionId, n + 1);
    signatures.add(signature);
    sameFile.push(words);
    keptByFile.set(cell.fileId, sameFile);
    kept.push(cell);
  }
  return kept;
}

/**
 * Whether two word sets' Jaccard similarity reaches `at`. Their sizes bound
 * it (at most the smaller over the larger), so most pairs of a file's
 * cells are told apart without comparing their words.
 */
function similar(a: Set<string>, b: Set<string>, at: number): boolean {
  const [small, large] = a.size <= b.size ? [a.size, b.size] : [b.size, a.size];
  if (large > 0 && small / large < at) return false;
  return jaccard(a, b) >= at;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}
