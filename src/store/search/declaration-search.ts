import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { fillTextAtLines } from "../graph/faction-text.js";
import type { SlicedTextRow } from "../graph/faction-text.js";
import { declarationsScored, rankedDeclarations, SYMBOL_FIELD_WEIGHTS } from "./symbol-search.js";
import type { SymbolFieldWeights } from "./symbol-search.js";

/**
 * The declaration searches of a memory answer: live declarations matching
 * a question (restricted to files when asked), which of the question's
 * terms each matches and how common each term is. The rows themselves, and
 * the members listed under one, are read by ../code/declaration-reads.ts
 * (`declarationDetailsByIds`, `declarationMembers`), as for the code pack.
 */

/** A declaration matching a search, with its BM25 relevance (higher is better). */
export interface DeclarationHit {
  symbolId: string;
  /** The declaration's row in the index, to test it against further expressions cheaply. */
  rowid: number;
  score: number;
}


/** Top live declarations of these projects matching an FTS5 expression, best first; with `fileIds`, only declarations of those files. */
export async function searchDeclarations(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  fileIds?: readonly string[],
  weights: SymbolFieldWeights = SYMBOL_FIELD_WEIGHTS,
): Promise<DeclarationHit[]> {
  if (!fileIds?.length) return (await rankedDeclarations(q, projectIds, match, limit, weights)).map(({ symbolId, rowid, score }) => ({ symbolId, rowid, score }));
  const rows = await q.all<{ symbol_id: string; rowid: number; s: number }>(
    `WITH top AS MATERIALIZED (${declarationsScored(projectIds, weights.join(", "), `AND s.file_rowid IN (SELECT rowid FROM files WHERE file_id IN (${placeholders(fileIds.length)}))`)})
     SELECT s.symbol_id, top.r AS rowid, -top.b AS s FROM top JOIN symbol_rows s ON s.rowid = top.r ORDER BY top.b, top.r`,
    [match, ...projectIds, ...fileIds, limit],
  );
  return rows.map((r) => ({ symbolId: r.symbol_id, rowid: Number(r.rowid), score: Number(r.s) }));
}

/** One FTS5 expression over the declaration index: how many rows (of every project) match it, and which of the rows asked about do. */
export interface DeclarationPostings {
  df: number;
  held: Set<number>;
}

/**
 * For each FTS5 expression, in one statement: its document frequency in
 * the index and which of the given rows hold it. Each expression's posting
 * list is walked inside SQLite and never read out (a common word's list in
 * a 100k-line corpus cost tens of milliseconds to read), and the terms of
 * a question cost one statement rather than three each. A `rowid IN (…)`
 * filter beside the MATCH would run the expression once per listed row, so
 * the rows are tested as the list is walked.
 */
export async function declarationPostings(q: Queryable, matches: readonly string[], rowids: readonly number[]): Promise<DeclarationPostings[]> {
  if (matches.length === 0) return [];
  const rows = await q.all<{ i: number; df: number; held: string | null }>(
    `WITH t AS (SELECT key AS i, value AS m FROM json_each(?))
     SELECT t.i AS i, count(*) AS df,
            group_concat(CASE WHEN symbols_fts.rowid IN (SELECT value FROM json_each(?)) THEN symbols_fts.rowid END) AS held
     FROM t, symbols_fts WHERE symbols_fts MATCH t.m GROUP BY t.i`,
    [JSON.stringify(matches), JSON.stringify(rowids)],
  );
  const out = matches.map((): DeclarationPostings => ({ df: 0, held: new Set() }));
  for (const r of rows) out[Number(r.i)] = { df: Number(r.df), held: new Set(r.held ? r.held.split(",").map(Number) : []) };
  return out;
}

/** An FTS5 expression restricted to the name column (name and qualified name, split as identifiers): rows a word names, not only mentions. */
export const inNames = (match: string) => `name : (${match})`;

/**
 * Indexed declarations of every project (the document count behind a
 * frequency), counted on the index's size table (`symbols_fts_docsize`, one
 * short row per indexed row, kept by FTS5 through inserts and deletes):
 * `count(*)` over the index itself walked all its data, 4 ms warm, 26 ms
 * cold and 132 ms under load at 42,556 declarations (a 1.3 M-line tree), in
 * every memory answer that ranks declarations; the size table is 175 pages
 * there against 2,627 (0.03 ms warm). The index's totals record would be
 * one row, but FTS5 does not lower it on a delete (search-totals.ts does;
 * migration 0045 mended stores written before): counting the size rows
 * does not depend on every delete having gone through that helper.
 */
export async function declarationCount(q: Queryable): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT count(*) AS n FROM symbols_fts_docsize");
  return Number(row?.n ?? 0);
}

/** The text of each declaration's code unit (its faction), by symbol id; declarations with none are absent. */
export async function declarationTexts(q: Queryable, projectIds: readonly string[], symbolIds: readonly string[]): Promise<Map<string, string>> {
  if (symbolIds.length === 0) return new Map();
  const rows = await q.all<SlicedTextRow & { symbol_id: string }>(
    `SELECT s.symbol_id, fa.text, fa.text_at_lines, fa.line_start, fa.line_end, fi.project_id, fi.read_chunk_id
     FROM symbols s JOIN factions fa ON fa.faction_id = s.faction_id JOIN files fi ON fi.file_id = fa.file_id
     WHERE s.project_id IN (${placeholders(projectIds.length)}) AND s.symbol_id IN (${placeholders(symbolIds.length)}) AND s.retired_at IS NULL`,
    [...projectIds, ...symbolIds],
  );
  await fillTextAtLines(q, rows);
  return new Map(rows.map((r) => [r.symbol_id, r.text ?? ""]));
}

/** Suffixes searched at most: each is one more pattern tried on every declaration name. */
const MAX_SUFFIXES = 40;

/**
 * Live declarations of these projects whose name ends with `_` and one of
 * these suffixes (exact case, at least one character before the `_`), with
 * the longest suffix each matched: how a task's names reach the methods
 * that dispatch on them (`_print_Integral`). GLOB, not LIKE: LIKE ignores
 * case. Suffixes that are not one identifier are not searched.
 */
export async function declarationsEndingWith(q: Queryable, projectIds: readonly string[], suffixes: readonly string[]): Promise<Array<{ symbolId: string; suffix: string }>> {
  const usable = suffixes.filter((x) => /^[\p{L}\p{N}_$]+$/u.test(x)).slice(0, MAX_SUFFIXES);
  if (usable.length === 0) return [];
  const rows = await q.all<{ symbol_id: string; name: string }>(
    `SELECT symbol_id, name FROM symbols WHERE project_id IN (${placeholders(projectIds.length)}) AND retired_at IS NULL AND (${usable.map(() => "name GLOB ?").join(" OR ")})`,
    [...projectIds, ...usable.map((x) => `?*_${x}`)],
  );
  return rows.flatMap((r) => {
    const suffix = usable.filter((x) => r.name.endsWith(`_${x}`)).sort((a, b) => b.length - a.length)[0];
    return suffix ? [{ symbolId: r.symbol_id, suffix }] : [];
  });
}
