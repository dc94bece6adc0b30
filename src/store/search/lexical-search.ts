import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { scoredCandidates, scoredFirst } from "./scored-first.js";
import { sharedSearch } from "./shared-searches.js";

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

/**
 * Top live cells of these projects matching an FTS5 expression. Every
 * matching row is scored and filtered before the `LIMIT`, so the filter
 * reads the cell's own row only (project, file, retired), where the `cells`
 * view joined three more tables per row and carried each text into the
 * sort; ids and text are read for the rows kept. On a 1.3 M-line store the
 * search took 17 % less CPU, the rows unchanged.
 */
export async function searchCells(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  fileIds?: readonly string[],
): Promise<CellHit[]> {
  const files = fileIds?.length ? `AND c.file_rowid IN (SELECT rowid FROM files WHERE file_id IN (${placeholders(fileIds.length)}))` : "";
  const rows = await q.all<{ cell_id: string; file_id: string; faction_id: string; text: string; s: number }>(
    `WITH top AS MATERIALIZED (
       SELECT c.rowid AS r, bm25(cells_fts, ${CELL_WEIGHTS}) AS b
       FROM cells_fts JOIN cell_rows c ON c.rowid = cells_fts.rowid
       WHERE cells_fts MATCH ? AND c.retired_at IS NULL
         AND c.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${placeholders(projectIds.length)})) ${files}
       ORDER BY b, r LIMIT ?)
     SELECT c.cell_id, c.file_id, c.faction_id, c.text, -top.b AS s FROM top JOIN cells c ON c.rowid = top.r ORDER BY top.b, top.r`,
    [match, ...projectIds, ...(fileIds ?? []), limit],
  );
  return rows.map((r) => ({ cellId: r.cell_id, fileId: r.file_id, factionId: r.faction_id, text: r.text, score: Number(r.s) }));
}

/**
 * Top live files of these projects matching an FTS5 expression, as whole
 * documents; without `fileIds`, scored first (scored-first.ts) and run
 * once for the stages of an answer on a sharing handle (shared-searches.ts);
 * with them, the exact search (the files asked are few).
 */
export async function searchFiles(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  fileIds?: readonly string[],
): Promise<FileHit[]> {
  const p = placeholders(projectIds.length);
  const exact = async (width: number) => {
    const files = fileIds?.length ? `AND f.file_id IN (${placeholders(fileIds.length)})` : "";
    return q.all<FileRow>(
      `SELECT f.file_id, -bm25(files_fts, ${FILE_WEIGHTS}) AS s, 0 AS n
       FROM files_fts JOIN files f ON f.rowid = files_fts.rowid
       WHERE files_fts MATCH ? AND f.status <> 'retired' AND f.project_id IN (${p}) ${files}
       ORDER BY bm25(files_fts, ${FILE_WEIGHTS}), f.rowid LIMIT ?`,
      [match, ...projectIds, ...(fileIds ?? []), width],
    );
  };
  const fast = (width: number) => (candidates: number) =>
    q.all<FileRow>(
      `WITH cand AS MATERIALIZED (${scoredCandidates("files_fts", FILE_WEIGHTS)})
       SELECT f.file_id, -cand.b AS s, (SELECT count(*) FROM cand) AS n FROM cand CROSS JOIN files f ON f.rowid = cand.r
       WHERE f.status <> 'retired' AND f.project_id IN (${p}) ORDER BY cand.b, cand.r LIMIT ?`,
      [match, candidates, ...projectIds, width],
    );
  const hits = (rows: FileRow[]) => rows.map((r) => ({ fileId: r.file_id, score: Number(r.s) }));
  if (fileIds?.length) return hits(await exact(limit));
  return sharedSearch(q, "files", JSON.stringify([projectIds, match]), limit, async (width) => hits(await scoredFirst(width, fast(width), () => exact(width))));
}

interface FileRow {
  file_id: string;
  s: number;
  n: number;
}

/** The cells of an answer's pool: the best overall, and the best of top documents that none of those is from. */
export interface CellPool {
  hits: CellHit[];
  /** Up to `perFile` best cells of each of the first `maxFiles` documents of `documents` holding no cell of `hits`. */
  documentCells: CellHit[];
}

/**
 * Top live cells of these projects matching an FTS5 expression (as
 * {@link searchCells}), and the best cells of the top documents those
 * leave out (to represent a document the question matches as a whole), in
 * one scoring of the cells: BM25 over `cells_fts` scores every row holding
 * a word of the expression, so scoring them once for both lists, rather
 * than once for each, takes out a tenth of a memory answer on a 1 M-line
 * store, its rows unchanged. bm25() cannot run inside a window function:
 * the rows are scored first (materialized), then ranked per file.
 * `documents` are file ids, best first. Without `fileIds`, only the best
 * candidates and the documents' own cells are looked up in `cell_rows`
 * (scored-first.ts); with them, every match is filtered as before.
 */
export async function searchCellPool(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  documents: { fileIds: readonly string[]; maxFiles: number; perFile: number },
  fileIds?: readonly string[],
): Promise<CellPool> {
  const p = placeholders(projectIds.length);
  const docs = [JSON.stringify(documents.fileIds), ...projectIds, documents.maxFiles, documents.perFile];
  const exact = () => {
    const files = fileIds?.length ? `AND c.file_rowid IN (SELECT rowid FROM files WHERE file_id IN (${placeholders(fileIds.length)}))` : "";
    return q.all<PoolRow>(
      `WITH hits AS MATERIALIZED (
         SELECT c.rowid AS r, c.file_rowid AS f, bm25(cells_fts, ${CELL_WEIGHTS}) AS b
         FROM cells_fts JOIN cell_rows c ON c.rowid = cells_fts.rowid
         WHERE cells_fts MATCH ? AND c.retired_at IS NULL AND c.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${p})) ${files}),
       top AS MATERIALIZED (SELECT r, f, b FROM hits ORDER BY b, r LIMIT ?),
       ${poolDocuments(p)},
       kept AS MATERIALIZED (
         SELECT r, b FROM (SELECT r, b, row_number() OVER (PARTITION BY f ORDER BY b, r) AS k FROM hits WHERE f IN (SELECT f FROM docs)) WHERE k <= ?)
       ${poolRows("0")}`,
      [match, ...projectIds, ...(fileIds ?? []), limit, ...docs],
    );
  };
  // Every matching row's score is kept (the documents' best cells are among them); the rows looked up are the candidates and the documents' own.
  const fast = (candidates: number) =>
    q.all<PoolRow>(
      `WITH hits AS MATERIALIZED (SELECT rowid AS r, bm25(cells_fts, ${CELL_WEIGHTS}) AS b FROM cells_fts WHERE cells_fts MATCH ?),
       cand AS MATERIALIZED (SELECT r, b FROM hits ORDER BY b, r LIMIT ?),
       top AS MATERIALIZED (
         SELECT cand.r AS r, c.file_rowid AS f, cand.b AS b FROM cand CROSS JOIN cell_rows c ON c.rowid = cand.r
         WHERE c.retired_at IS NULL AND c.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${p})) ORDER BY cand.b, cand.r LIMIT ?),
       ${poolDocuments(p)},
       held AS MATERIALIZED (
         SELECT h.r, h.b FROM hits h
         WHERE h.r IN (SELECT c.rowid FROM cell_rows c WHERE c.file_rowid IN (SELECT f FROM docs) AND c.retired_at IS NULL)),
       kept AS MATERIALIZED (
         SELECT r, b FROM (SELECT held.r, held.b, row_number() OVER (PARTITION BY c.file_rowid ORDER BY held.b, held.r) AS k
                           FROM held CROSS JOIN cell_rows c ON c.rowid = held.r) WHERE k <= ?)
       ${poolRows("(SELECT count(*) FROM cand)")}`,
      [match, candidates, ...projectIds, limit, ...docs],
    );
  const rows = fileIds?.length ? await exact() : await scoredFirst(limit, fast, exact, (rows) => rows.filter((r) => Number(r.d) === 0).length);
  const hit = (r: PoolRow): CellHit => ({ cellId: r.cell_id, fileId: r.file_id, factionId: r.faction_id, text: r.text, score: Number(r.s) });
  return { hits: rows.filter((r) => Number(r.d) === 0).map(hit), documentCells: rows.filter((r) => Number(r.d) === 1).map(hit) };
}

interface PoolRow {
  d: number;
  cell_id: string;
  file_id: string;
  faction_id: string;
  text: string;
  s: number;
  n: number;
}

/**
 * The pool's documents: the first of the files given (a JSON list, best
 * first) of the projects (`p`, their placeholders) that hold no cell of
 * `top`, as many as asked; their cells are the projects' whichever way the
 * cells were searched.
 */
const poolDocuments = (p: string) => `docs AS MATERIALIZED (
         SELECT fi.rowid AS f FROM json_each(?) AS j JOIN files fi ON fi.file_id = j.value
         WHERE fi.project_id IN (${p}) AND fi.rowid NOT IN (SELECT f FROM top) ORDER BY j.key LIMIT ?)`;

/** The pool's rows from `top` and `kept`: the best cells first, then the documents' cells by file; `n` as the statement counts its candidates. */
const poolRows = (n: string) => `SELECT *, ${n} AS n FROM (
         SELECT 0 AS d, top.r, c.cell_id, c.file_id, c.faction_id, c.text, -top.b AS s FROM top JOIN cells c ON c.rowid = top.r
         UNION ALL
         SELECT 1 AS d, kept.r, c.cell_id, c.file_id, c.faction_id, c.text, -kept.b AS s FROM kept JOIN cells c ON c.rowid = kept.r)
       ORDER BY d, (CASE WHEN d = 0 THEN s END) DESC, (CASE WHEN d = 0 THEN r END), file_id, s DESC, r`;

/** One FTS5 expression over whole files: how many live files of the projects hold it, and which of the files asked about do. */
export interface FilePostings {
  df: number;
  held: Set<string>;
}

/**
 * For each FTS5 expression, in one statement: its document frequency over
 * the projects' live files and which of the given files hold it; with how
 * many files are indexed (`n`). The posting lists are walked inside SQLite
 * first (materialized), then each posting's file is looked up by rowid:
 * joined in one step, the planner walked the project's files and ran the
 * expression once per file (110 ms a term on a 700-file store, where this
 * takes under one). The given files are tested as the postings are
 * walked, and a question's terms cost one statement rather than two each.
 * A posting is kept when its rowid is among the projects' live files (read
 * once from `files_project_status`) rather than by reading its file's row:
 * at 4 M lines a common word is in thousands of files, and those look-ups
 * took 28 → 17 ms a statement (the counts the same); only the given files
 * holding a term have their id read.
 */
export async function filePostings(
  q: Queryable,
  projectIds: readonly string[],
  matches: readonly string[],
  fileIds: readonly string[],
): Promise<{ n: number; terms: FilePostings[] }> {
  const p = placeholders(projectIds.length);
  const rows = await q.all<{ i: number; df: number; held: string | null }>(
    `WITH t AS (SELECT key AS i, value AS m FROM json_each(?)),
     hits AS MATERIALIZED (SELECT t.i AS i, files_fts.rowid AS r FROM t, files_fts WHERE files_fts MATCH t.m),
     live AS MATERIALIZED (SELECT rowid AS r FROM files WHERE project_id IN (${p}) AND status <> 'retired'),
     asked AS MATERIALIZED (SELECT rowid AS r FROM files WHERE file_id IN (SELECT value FROM json_each(?)))
     SELECT hits.i AS i, count(*) AS df,
            group_concat(CASE WHEN hits.r IN (SELECT r FROM asked) THEN (SELECT file_id FROM files WHERE rowid = hits.r) END) AS held
     FROM hits WHERE hits.r IN (SELECT r FROM live)
     GROUP BY hits.i
     UNION ALL SELECT -1, (SELECT count(*) FROM files WHERE status = 'ready' AND project_id IN (${p})), NULL`,
    [JSON.stringify(matches), ...projectIds, JSON.stringify(fileIds), ...projectIds],
  );
  return { n: Number(rows.find((r) => Number(r.i) < 0)?.df ?? 0), terms: postingsOf(matches, rows) };
}

/** Each expression's postings from rows keyed by its index (`i` < 0 rows are no expression's). */
function postingsOf(matches: readonly string[], rows: ReadonlyArray<{ i: number; df: number; held: string | null }>): FilePostings[] {
  const terms = matches.map((): FilePostings => ({ df: 0, held: new Set() }));
  for (const r of rows) if (Number(r.i) >= 0) terms[Number(r.i)] = { df: Number(r.df), held: new Set(r.held ? r.held.split(",") : []) };
  return terms;
}

/**
 * For each FTS5 expression, in one statement: how many live files of the
 * projects declare something whose indexed text (name, header, doc, body)
 * holds it, and which of the given files do. A code file's document holds
 * its declarations' headers and docs, not their bodies: the words a
 * function's body uses are found here. Files are counted by the
 * declaration's own file rowid and only the given files are looked up by
 * id: a common word is held by thousands of declarations, and a files row
 * read for each was a third of the statement. The file rowid is read from
 * `symbol_files` (live declarations only, 12 bytes a row), not from
 * `symbol_rows`: at 4 M lines the statement took 51 → 21 ms
 * (migration 0046).
 */
export async function declaredFilePostings(
  q: Queryable,
  projectIds: readonly string[],
  matches: readonly string[],
  fileIds: readonly string[],
): Promise<FilePostings[]> {
  const rows = await q.all<{ i: number; df: number; held: string | null }>(
    `WITH t AS (SELECT key AS i, value AS m FROM json_each(?)),
     hits AS MATERIALIZED (SELECT t.i AS i, symbols_fts.rowid AS r FROM t, symbols_fts WHERE symbols_fts MATCH t.m),
     asked AS MATERIALIZED (SELECT rowid AS r, file_id FROM files WHERE file_id IN (SELECT value FROM json_each(?))),
     held AS (SELECT hits.i AS i, s.file_rowid AS f FROM hits CROSS JOIN symbol_files s ON s.symbol_rowid = hits.r
              WHERE s.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${placeholders(projectIds.length)})))
     SELECT held.i AS i, count(DISTINCT held.f) AS df, group_concat(DISTINCT asked.file_id) AS held
     FROM held LEFT JOIN asked ON asked.r = held.f GROUP BY held.i`,
    [JSON.stringify(matches), JSON.stringify(fileIds), ...projectIds],
  );
  return postingsOf(matches, rows);
}

