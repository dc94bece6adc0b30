import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";

/**
 * Factions and cells name their project, file, faction and parent by rowid
 * (`0032-faction-cell-rowids.sql`), entities their project
 * (`0034-entity-rowids.sql`), symbols all five
 * (`0035-symbol-rowids.sql`); the writes are handed public ids. These
 * turn a batch of ids into rowids with one key search per 500 ids, where a
 * subquery per row and column would search once for every value.
 */

/** The tables whose public ids other rows key by rowid, with their id column. */
const ID_COLUMNS = {
  projects: "project_id",
  files: "file_id",
  faction_rows: "faction_id",
  cell_rows: "cell_id",
  entity_rows: "entity_id",
} as const;

export type KeyedTable = keyof typeof ID_COLUMNS;

/** Rowids of the stored rows among `ids` (an id not stored has none). */
export async function rowidsOf(q: Queryable, table: KeyedTable, ids: Iterable<string>): Promise<Map<string, number>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, number>();
  const column = ID_COLUMNS[table];
  for (let i = 0; i < unique.length; i += 500) {
    const slice = unique.slice(i, i + 500);
    const rows = await q.all<{ rowid: number; id: string }>(
      `SELECT rowid, ${column} AS id FROM ${table} WHERE ${column} IN (${placeholders(slice.length)})`,
      slice,
    );
    for (const r of rows) out.set(r.id, Number(r.rowid));
  }
  return out;
}

/** The rowid of a stored id; a write naming one that is not stored is a defect of its caller. */
export function rowidIn(rowids: ReadonlyMap<string, number>, id: string, what: string): number {
  const rowid = rowids.get(id);
  if (rowid === undefined) throw new Error(`no stored ${what} ${id}`);
  return rowid;
}

/** The rowid the next row of `table` gets when inserted without one (SQLite's own choice). */
export async function nextRowid(q: Queryable, table: "cell_rows"): Promise<number> {
  const row = await q.get<{ top: number | null }>(`SELECT max(rowid) AS top FROM ${table}`);
  return Number(row?.top ?? 0) + 1;
}
