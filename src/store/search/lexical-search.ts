import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";

export interface CellHit {
  cellId: string;
  fileId: string;
  factionId: string;
  text: string;
  /** BM25 relevance, higher is better. */
  score: number;
}

export interface FileHit {
  fileId: string;
  score: number;
}

/** BM25 column weights: a cell's own text counts more than its context. */
const CELL_WEIGHTS = "1.0, 0.35";
const FILE_WEIGHTS = "1.5, 1.0";

/** Top live cells of these projects matching an FTS5 expression. */
export async function searchCells(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  fileIds?: readonly string[],
): Promise<CellHit[]> {
  const files = fileIds?.length ? `AND c.file_id IN (${placeholders(fileIds.length)})` : "";
  const rows = await q.all<{ cell_id: string; file_id: string; faction_id: string; text: string; s: number }>(
    `SELECT c.cell_id, c.file_id, c.faction_id, c.text, -bm25(cells_fts, ${CELL_WEIGHTS}) AS s
     FROM cells_fts JOIN cells c ON c.rowid = cells_fts.rowid
     WHERE cells_fts MATCH ? AND c.retired_at IS NULL AND c.project_id IN (${placeholders(projectIds.length)}) ${files}
     ORDER BY bm25(cells_fts, ${CELL_WEIGHTS}) LIMIT ?`,
    [match, ...projectIds, ...(fileIds ?? []), limit],
  );
  return rows.map((r) => ({ cellId: r.cell_id, fileId: r.file_id, factionId: r.faction_id, text: r.text, score: Number(r.s) }));
}

/** Top live files of these projects matching an FTS5 expression, as whole documents. */
export async function searchFiles(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  fileIds?: readonly string[],
): Promise<FileHit[]> {
  const files = fileIds?.length ? `AND f.file_id IN (${placeholders(fileIds.length)})` : "";
  const rows = await q.all<{ file_id: string; s: number }>(
    `SELECT f.file_id, -bm25(files_fts, ${FILE_WEIGHTS}) AS s
     FROM files_fts JOIN files f ON f.rowid = files_fts.rowid
     WHERE files_fts MATCH ? AND f.status <> 'retired' AND f.project_id IN (${placeholders(projectIds.length)}) ${files}
     ORDER BY bm25(files_fts, ${FILE_WEIGHTS}) LIMIT ?`,
    [match, ...projectIds, ...(fileIds ?? []), limit],
  );
  return rows.map((r) => ({ fileId: r.file_id, score: Number(r.s) }));
}

/** The best-matching live cells of given files (to represent top documents). */
export async function bestCellsOfFiles(
  q: Queryable,
  match: string,
  fileIds: readonly string[],
  perFile: number,
): Promise<CellHit[]> {
  if (fileIds.length === 0) return [];
  // bm25() cannot run inside a window function: score first, materialized, then rank per file.
  const rows = await q.all<{ cell_id: string; file_id: string; faction_id: string; text: string; s: number }>(
    `WITH hits AS MATERIALIZED (
       SELECT c.cell_id, c.file_id, c.faction_id, c.text, -bm25(cells_fts, ${CELL_WEIGHTS}) AS s
       FROM cells_fts JOIN cells c ON c.rowid = cells_fts.rowid
       WHERE cells_fts MATCH ? AND c.retired_at IS NULL AND c.file_id IN (${placeholders(fileIds.length)}))
     SELECT cell_id, file_id, faction_id, text, s FROM (
       SELECT *, row_number() OVER (PARTITION BY file_id ORDER BY s DESC) AS k FROM hits)
     WHERE k <= ?`,
    [match, ...fileIds, perFile],
  );
  return rows.map((r) => ({ cellId: r.cell_id, fileId: r.file_id, factionId: r.faction_id, text: r.text, score: Number(r.s) }));
}

/**
 * Which of these files hold an FTS5 expression as whole documents: one
 * term's posting list intersected with candidate files (a `rowid IN (…)`
 * filter inside the MATCH would run the expression once per listed row).
 */
export async function filesHolding(q: Queryable, match: string, fileIds: readonly string[]): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await q.all<{ file_id: string }>(
    `WITH hits AS MATERIALIZED (SELECT rowid FROM files_fts WHERE files_fts MATCH ?)
     SELECT f.file_id FROM hits JOIN files f ON f.rowid = hits.rowid WHERE f.file_id IN (${placeholders(fileIds.length)})`,
    [match, ...fileIds],
  );
  return new Set(rows.map((r) => r.file_id));
}

/** How many live files of these projects hold an FTS5 expression, and how many are indexed: a term's document frequency over files. */
export async function fileFrequency(q: Queryable, projectIds: readonly string[], match: string): Promise<{ df: number; n: number }> {
  const p = placeholders(projectIds.length);
  const row = await q.get<{ df: number; n: number }>(
    `SELECT (SELECT count(*) FROM files_fts JOIN files f ON f.rowid = files_fts.rowid
              WHERE files_fts MATCH ? AND f.status <> 'retired' AND f.project_id IN (${p})) AS df,
            (SELECT count(*) FROM files WHERE status = 'ready' AND project_id IN (${p})) AS n`,
    [match, ...projectIds, ...projectIds],
  );
  return { df: Number(row?.df ?? 0), n: Number(row?.n ?? 0) };
}
