import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { SYMBOL_FIELD_WEIGHTS } from "./symbol-search.js";
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

const fileFilter = (fileIds: readonly string[] | undefined) => (fileIds?.length ? `AND s.file_id IN (${placeholders(fileIds.length)})` : "");

/** Top live declarations of these projects matching an FTS5 expression, best first; with `fileIds`, only declarations of those files. */
export async function searchDeclarations(
  q: Queryable,
  projectIds: readonly string[],
  match: string,
  limit: number,
  fileIds?: readonly string[],
  weights: SymbolFieldWeights = SYMBOL_FIELD_WEIGHTS,
): Promise<DeclarationHit[]> {
  const w = weights.join(", ");
  const rows = await q.all<{ symbol_id: string; rowid: number; s: number }>(
    `SELECT s.symbol_id, s.rowid AS rowid, -bm25(symbols_fts, ${w}) AS s
     FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid
     WHERE symbols_fts MATCH ? AND s.retired_at IS NULL AND s.project_id IN (${placeholders(projectIds.length)}) ${fileFilter(fileIds)}
     ORDER BY bm25(symbols_fts, ${w}) LIMIT ?`,
    [match, ...projectIds, ...(fileIds ?? []), limit],
  );
  return rows.map((r) => ({ symbolId: r.symbol_id, rowid: Number(r.rowid), score: Number(r.s) }));
}

/**
 * Every index row (of every project) matching an FTS5 expression: one
 * term's posting list, read from the index alone. Its size is the term's
 * document frequency; intersected with a ranking's rows, it says which of
 * them hold the term. (A `rowid IN (…)` filter would run the expression
 * once per listed row.)
 */
export async function declarationsMatching(q: Queryable, match: string): Promise<Set<number>> {
  const rows = await q.all<{ rowid: number }>("SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ?", [match]);
  return new Set(rows.map((r) => Number(r.rowid)));
}

/**
 * Every index row (of every project) whose name column (name and qualified
 * name, split as identifiers) matches an FTS5 expression: which rows a
 * question word names, not only mentions.
 */
export async function declarationsNamedBy(q: Queryable, match: string): Promise<Set<number>> {
  return declarationsMatching(q, `name : (${match})`);
}

/** How many index rows (of every project) match an FTS5 expression: a term's document frequency, counted in the index. */
export async function declarationFrequency(q: Queryable, match: string): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT count(*) AS n FROM symbols_fts WHERE symbols_fts MATCH ?", [match]);
  return Number(row?.n ?? 0);
}

/** Indexed declarations of every project (the document count behind a frequency). */
export async function declarationCount(q: Queryable): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT count(*) AS n FROM symbols_fts");
  return Number(row?.n ?? 0);
}

/** The text of each declaration's code unit (its faction), by symbol id; declarations with none are absent. */
export async function declarationTexts(q: Queryable, projectIds: readonly string[], symbolIds: readonly string[]): Promise<Map<string, string>> {
  if (symbolIds.length === 0) return new Map();
  const rows = await q.all<{ symbol_id: string; text: string }>(
    `SELECT s.symbol_id, fa.text FROM symbols s JOIN factions fa ON fa.faction_id = s.faction_id
     WHERE s.project_id IN (${placeholders(projectIds.length)}) AND s.symbol_id IN (${placeholders(symbolIds.length)}) AND s.retired_at IS NULL`,
    [...projectIds, ...symbolIds],
  );
  return new Map(rows.map((r) => [r.symbol_id, r.text]));
}
