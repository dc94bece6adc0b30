import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";
import { fillTextAtLines } from "../graph/faction-text.js";
import { scoredCandidates, scoredFirst } from "./scored-first.js";
import { sharedSearch } from "./shared-searches.js";
import { deleteSearchRows } from "./search-totals.js";
import type { SlicedTextRow } from "../graph/faction-text.js";

/** What one live declaration's search row is built from. */
export interface SymbolSearchSource {
  rowid: number;
  name: string;
  qualifiedName: string;
  signature: string;
  doc: string | null;
  path: string;
  /** The declaration's own text (its code unit), when it has one. */
  body: string | null;
}

/** One row of `symbols_fts`, its fields ready to index. */
export interface SymbolSearchRow {
  rowid: number;
  name: string;
  signature: string;
  doc: string;
  path: string;
  body: string;
}

/** A declaration matching a search, with its BM25 relevance (higher is better). */
export interface SymbolHit {
  symbolId: string;
  fileId: string;
  score: number;
}

/** BM25 weight of each `symbols_fts` column: name, signature, doc, path, body. */
export type SymbolFieldWeights = readonly [number, number, number, number, number];

/** Measured on the code evaluation's tuning split (bench/eval-code.ts). */
export const SYMBOL_FIELD_WEIGHTS: SymbolFieldWeights = [4, 2, 1, 1.5, 1];

/** The live declarations of a file with their file path and code unit text. */
export async function symbolSearchSources(q: Queryable, fileId: string): Promise<SymbolSearchSource[]> {
  const rows = await q.all<SlicedTextRow & { rowid: number; name: string; qualified_name: string; signature: string; doc: string | null; path: string }>(
    `SELECT s.rowid AS rowid, s.name, s.qualified_name, s.signature, s.doc, fi.path, fa.text, fa.text_at_lines, fa.line_start, fa.line_end,
       fi.project_id, fi.read_chunk_id
     FROM symbols s JOIN files fi ON fi.file_id = s.file_id LEFT JOIN faction_rows fa ON fa.faction_id = s.faction_id
     WHERE s.file_id = ? AND s.retired_at IS NULL`,
    [fileId],
  );
  await fillTextAtLines(q, rows);
  return rows.map((r) => ({
    rowid: Number(r.rowid), name: r.name, qualifiedName: r.qualified_name, signature: r.signature, doc: r.doc, path: r.path, body: r.text,
  }));
}

/** Replaces the search rows of a file's declarations (live or retired) with these. */
export async function replaceSymbolSearchRows(q: Queryable, fileId: string, rows: readonly SymbolSearchRow[]): Promise<void> {
  await deleteSearchRows(q, "symbols_fts", "SELECT rowid FROM symbols WHERE file_id = ?", [fileId]);
  await insertRows(
    q,
    "symbols_fts",
    ["rowid", "name", "signature", "doc", "path", "body"],
    rows.map((r) => [r.rowid, r.name, r.signature, r.doc, r.path, r.body]),
  );
}

/** A declaration matching a search: its ids, its row in the index and its BM25 relevance (higher is better). */
export interface RankedDeclaration {
  symbolId: string;
  fileId: string;
  rowid: number;
  score: number;
}

/**
 * The rowid and BM25 (lower is better) of the best live declarations of
 * these projects matching an expression, as a statement taking the match,
 * the project ids, then any `extra` filter's arguments and the limit. Every
 * matching row is scored and filtered before the `LIMIT` (the exact search:
 * {@link rankedDeclarations} scores first, scored-first.ts), so the filter
 * reads the declaration's own row, where the `symbols` view joined five
 * more tables per row; ids are read for the rows kept.
 */
export function declarationsScored(projectIds: readonly string[], weights: string, extra: string): string {
  return `SELECT s.rowid AS r, bm25(symbols_fts, ${weights}) AS b
     FROM symbols_fts JOIN symbol_rows s ON s.rowid = symbols_fts.rowid
     WHERE symbols_fts MATCH ? AND s.retired_at IS NULL
       AND s.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${placeholders(projectIds.length)})) ${extra}
     ORDER BY b, r LIMIT ?`;
}

/**
 * Top live declarations of these projects matching an FTS5 expression,
 * best first: the one statement behind {@link searchSymbols} and the
 * memory answer's declaration search, run once for both on a sharing
 * handle (shared-searches.ts), scored first (scored-first.ts).
 */
export async function rankedDeclarations(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  weights: SymbolFieldWeights = SYMBOL_FIELD_WEIGHTS,
): Promise<RankedDeclaration[]> {
  const w = weights.join(", ");
  const p = placeholders(projectIds.length);
  const ids = `SELECT s.symbol_id, f.file_id, top.r AS rowid, -top.b AS s`;
  const named = `JOIN symbol_rows s ON s.rowid = top.r JOIN files f ON f.rowid = s.file_rowid ORDER BY top.b, top.r`;
  const exact = (width: number) => () =>
    q.all<DeclarationRow>(`WITH top AS MATERIALIZED (${declarationsScored(projectIds, w, "")}) ${ids}, 0 AS n FROM top ${named}`, [match, ...projectIds, width]);
  // Scored first (scored-first.ts): only the best candidates are looked up to keep the projects' live rows.
  const fast = (width: number) => (candidates: number) =>
    q.all<DeclarationRow>(
      `WITH cand AS MATERIALIZED (${scoredCandidates("symbols_fts", w)}),
       top AS MATERIALIZED (
         SELECT cand.r AS r, cand.b AS b FROM cand CROSS JOIN symbol_rows s ON s.rowid = cand.r
         WHERE s.retired_at IS NULL AND s.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${p})) ORDER BY cand.b, cand.r LIMIT ?)
       ${ids}, (SELECT count(*) FROM cand) AS n FROM top ${named}`,
      [match, candidates, ...projectIds, width],
    );
  return sharedSearch(q, "declarations", JSON.stringify([projectIds, match, weights]), limit, async (width) => {
    const rows = await scoredFirst(width, fast(width), exact(width));
    return rows.map((r) => ({ symbolId: r.symbol_id, fileId: r.file_id, rowid: Number(r.rowid), score: Number(r.s) }));
  });
}

interface DeclarationRow {
  symbol_id: string;
  file_id: string;
  rowid: number;
  s: number;
  n: number;
}

/** Top live declarations of these projects matching an FTS5 expression, best first. */
export async function searchSymbols(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  weights: SymbolFieldWeights = SYMBOL_FIELD_WEIGHTS,
): Promise<SymbolHit[]> {
  const rows = await rankedDeclarations(q, projectIds, match, limit, weights);
  return rows.map((r) => ({ symbolId: r.symbolId, fileId: r.fileId, score: r.score }));
}
