import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { SYMBOL_FIELD_WEIGHTS } from "./symbol-search.js";
import type { SymbolFieldWeights } from "./symbol-search.js";

/**
 * The declaration reads of a memory answer: live declarations matching a
 * question (restricted to files when asked), which of the question's terms
 * each matches, how common each term is, and the members listed under a
 * declaration. The code pack has its own reads (symbol-search.ts,
 * declaration-reads.ts); these add the file restriction and the fields a
 * memory row shows (doc, cell) that those leave out.
 */

/** A declaration matching a search, with its BM25 relevance (higher is better). */
export interface DeclarationHit {
  symbolId: string;
  /** The declaration's row in the index, to test it against further expressions cheaply. */
  rowid: number;
  score: number;
}

/** A live declaration as a memory answer shows it. */
export interface DeclarationRow {
  symbolId: string;
  fileId: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  depth: number;
  lineStart: number;
  lineEnd: number;
  signature: string;
  doc: string | null;
  /** The cell holding the declaration's text, when it has one. */
  cellId: string | null;
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

interface Row {
  symbol_id: string;
  file_id: string;
  path: string;
  name: string;
  qualified_name: string;
  kind: string;
  depth: number;
  line_start: number;
  line_end: number;
  signature: string;
  doc: string | null;
  cell_id: string | null;
}

const SELECT = `SELECT s.symbol_id, s.file_id, fi.path, s.name, s.qualified_name, s.kind, s.depth, s.line_start, s.line_end, s.signature, s.doc, s.cell_id
  FROM symbols s JOIN files fi ON fi.file_id = s.file_id`;

const toRow = (r: Row): DeclarationRow => ({
  symbolId: r.symbol_id,
  fileId: r.file_id,
  path: r.path,
  name: r.name,
  qualifiedName: r.qualified_name,
  kind: r.kind,
  depth: Number(r.depth),
  lineStart: Number(r.line_start),
  lineEnd: Number(r.line_end),
  signature: r.signature,
  doc: r.doc,
  cellId: r.cell_id,
});

/** Live declarations of these projects by symbol id (any order). */
export async function declarationRows(q: Queryable, projectIds: readonly string[], symbolIds: readonly string[]): Promise<DeclarationRow[]> {
  if (symbolIds.length === 0) return [];
  const rows = await q.all<Row>(
    `${SELECT} WHERE s.project_id IN (${placeholders(projectIds.length)}) AND s.symbol_id IN (${placeholders(symbolIds.length)}) AND s.retired_at IS NULL`,
    [...projectIds, ...symbolIds],
  );
  return rows.map(toRow);
}

/**
 * The live declarations directly inside a declaration (one level deeper,
 * within its lines, in its file), in line order, at most `limit`.
 */
export async function declarationMembers(
  q: Queryable,
  parent: Pick<DeclarationRow, "fileId" | "depth" | "lineStart" | "lineEnd">,
  limit: number,
): Promise<DeclarationRow[]> {
  const rows = await q.all<Row>(
    `${SELECT} WHERE s.file_id = ? AND s.retired_at IS NULL AND s.depth = ? AND s.line_start >= ? AND s.line_end <= ?
     ORDER BY s.line_start LIMIT ?`,
    [parent.fileId, parent.depth + 1, parent.lineStart, parent.lineEnd, limit],
  );
  return rows.map(toRow);
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
