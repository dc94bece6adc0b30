/**
 * Ranked full-text searches scored first and filtered after. A search over
 * an FTS5 index joined to its rows' table (to keep the live rows of the
 * projects asked) reads that table's row for every row the expression
 * matches, before the `LIMIT`: at 4 M lines a question word such as
 * `tests` is in 132 k cells, and those look-ups into `cell_rows` (78 MB,
 * its text inline) cost as much as FTS5's scoring itself. So the index is
 * scored alone, its best `limit × CANDIDATES_PER_ROW` rows kept, and only
 * those are looked up and filtered. Measured on the scale benchmark's 4 M
 * store (ten questions and tasks, each statement alone): the cell pool
 * 158 → 108 ms, the declaration search 50 → 26 ms, the file search 15 →
 * 7 ms per question, the rows the same.
 *
 * The candidates are joined to their rows with `CROSS JOIN`, which SQLite
 * never reorders: with the count a bound parameter the planner does not
 * know the candidates are few, and it walked the project's 23 k files by
 * their index instead, 77 ms a search whatever the words.
 *
 * When the filter leaves fewer than `limit` rows of a full candidate list
 * (a store shared by other projects, or rows retired but still indexed),
 * the rows past the candidates could belong in the answer, so the search
 * runs again the exact way, every matching row filtered before the cut.
 * A store whose asked projects hold most of the index never does.
 */

/** Candidates scored per row asked: twice, so a few retired or foreign rows among the best still leave `limit`. */
export const CANDIDATES_PER_ROW = 2;

/**
 * A CTE body: the `rowid` (`r`) and BM25 (`b`, lower is better) of an FTS5
 * table's best rows matching the statement's next argument, as many as
 * the argument after it. `weights` are the columns' BM25 weights. Rows of
 * equal score go by rowid, here and in the exact searches, so both ways
 * keep the same rows at a cut through a tie.
 */
export function scoredCandidates(table: "cells_fts" | "files_fts" | "symbols_fts", weights: string): string {
  return `SELECT rowid AS r, bm25(${table}, ${weights}) AS b FROM ${table} WHERE ${table} MATCH ? ORDER BY b, r LIMIT ?`;
}

/**
 * The rows of a search scored first (`fast`, given how many candidates to
 * keep; its rows carry `n`, how many candidates it kept before the
 * filter), or of the exact search
 * when the filter may have cut rows that belong: fewer than `limit` rows
 * kept of a full candidate list, or none kept at all. `kept` counts the
 * ranked rows among those `fast` returns (all of them by default).
 */
export async function scoredFirst<T extends { n: number | bigint }>(
  limit: number,
  fast: (candidates: number) => Promise<T[]>,
  exact: () => Promise<T[]>,
  kept: (rows: readonly T[]) => number = (rows) => rows.length,
): Promise<T[]> {
  const candidates = limit * CANDIDATES_PER_ROW;
  const rows = await fast(candidates);
  const n = kept(rows);
  if (n >= limit) return rows;
  if (rows.length > 0 && Number(rows[0]!.n) < candidates) return rows;
  return exact();
}
