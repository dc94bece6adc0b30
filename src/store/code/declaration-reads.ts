import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { projectRowids } from "./code-references.js";

/** A live declaration as a context pack shows it. */
export interface DeclarationBrief {
  symbolId: string;
  fileId: string;
  /** The file's project path. */
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  depth: number;
  lineStart: number;
  lineEnd: number;
  signature: string;
}

/**
 * A declaration as a memory answer shows it: the brief plus its doc comment
 * and the cell holding its text. Read only where shown (the code pack's hot
 * reads leave both columns out).
 */
export interface DeclarationDetail extends DeclarationBrief {
  doc: string | null;
  /** The cell holding the declaration's text, when it has one. */
  cellId: string | null;
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
}

interface DetailRow extends Row {
  doc: string | null;
  cell_id: string | null;
}

const BATCH = 500;
const COLUMNS = "s.symbol_id, s.file_id, fi.path, s.name, s.qualified_name, s.kind, s.depth, s.line_start, s.line_end, s.signature";
const FROM = "FROM symbols s JOIN files fi ON fi.file_id = s.file_id";
const SELECT = `SELECT ${COLUMNS} ${FROM}`;
const SELECT_DETAIL = `SELECT ${COLUMNS}, s.doc, s.cell_id ${FROM}`;

const toBrief = (r: Row): DeclarationBrief => ({
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
});

const toDetail = (r: DetailRow): DeclarationDetail => ({ ...toBrief(r), doc: r.doc, cellId: r.cell_id });

async function inBatches<R, T>(values: readonly string[], read: (slice: string[]) => Promise<R[]>, map: (r: R) => T): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += BATCH) out.push(...(await read(values.slice(i, i + BATCH))).map(map));
  return out;
}

const BY_IDS = (projects: number, ids: number) =>
  `WHERE s.project_id IN (${placeholders(projects)}) AND s.symbol_id IN (${placeholders(ids)}) AND s.retired_at IS NULL`;

/** Live declarations of these projects by symbol id. */
export function declarationsByIds(q: Queryable, projectIds: readonly string[], symbolIds: readonly string[]): Promise<DeclarationBrief[]> {
  return inBatches(symbolIds, (ids) => q.all<Row>(`${SELECT} ${BY_IDS(projectIds.length, ids.length)}`, [...projectIds, ...ids]), toBrief);
}

/** Live declarations of these projects by symbol id, with doc comment and cell (any order). */
export function declarationDetailsByIds(q: Queryable, projectIds: readonly string[], symbolIds: readonly string[]): Promise<DeclarationDetail[]> {
  return inBatches(symbolIds, (ids) => q.all<DetailRow>(`${SELECT_DETAIL} ${BY_IDS(projectIds.length, ids.length)}`, [...projectIds, ...ids]), toDetail);
}

/**
 * The live declarations directly inside a declaration (one level deeper,
 * within its lines, in its file), in line order, at most `limit`.
 */
export async function declarationMembers(
  q: Queryable,
  parent: Pick<DeclarationBrief, "fileId" | "depth" | "lineStart" | "lineEnd">,
  limit: number,
): Promise<DeclarationDetail[]> {
  const rows = await q.all<DetailRow>(
    `${SELECT_DETAIL} WHERE s.file_id = ? AND s.retired_at IS NULL AND s.depth = ? AND s.line_start >= ? AND s.line_end <= ?
     ORDER BY s.line_start LIMIT ?`,
    [parent.fileId, parent.depth + 1, parent.lineStart, parent.lineEnd, limit],
  );
  return rows.map(toDetail);
}

/** Live declarations of these projects declared under one of these names (exact case). */
export function declarationsNamed(q: Queryable, projectIds: readonly string[], names: readonly string[]): Promise<DeclarationBrief[]> {
  return inBatches(
    names,
    (slice) =>
      q.all<Row>(
        `${SELECT} WHERE s.project_id IN (${placeholders(projectIds.length)}) AND s.name IN (${placeholders(slice.length)}) AND s.retired_at IS NULL`,
        [...projectIds, ...slice],
      ),
    toBrief,
  );
}

/**
 * Live declarations of a file whose lines hold one of these lines (filtered
 * in SQL: a large file declares thousands), in line order.
 */
export async function declarationsAround(q: Queryable, fileId: string, lines: readonly number[]): Promise<DeclarationBrief[]> {
  if (lines.length === 0) return [];
  const rows = await q.all<Row>(
    `${SELECT} WHERE s.file_id = ? AND s.retired_at IS NULL AND (${lines.map(() => "(s.line_start <= ? AND s.line_end >= ?)").join(" OR ")})
     ORDER BY s.line_start, s.depth`,
    [fileId, ...lines.flatMap((l) => [l, l])],
  );
  return rows.map(toBrief);
}

/** How many live declarations of these projects carry each of these names. */
export async function declarationCountsByName(q: Queryable, projectIds: readonly string[], names: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < names.length; i += BATCH) {
    const slice = names.slice(i, i + BATCH);
    const rows = await q.all<{ name: string; n: number }>(
      `SELECT name, count(*) AS n FROM symbol_rows
       WHERE project_rowid IN ${projectRowids(projectIds.length)} AND name IN (${placeholders(slice.length)}) AND retired_at IS NULL GROUP BY name`,
      [...projectIds, ...slice],
    );
    for (const r of rows) counts.set(r.name, Number(r.n));
  }
  return counts;
}
