import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";
import { notePurge } from "../search/search-index.js";
import { nextRowid, rowidIn, rowidsOf } from "./row-keys.js";

export interface CellKey {
  cellId: string;
  factionId: string;
  ordinal: number;
  text: string;
  parentCellId: string | null;
}

export interface NewCell {
  cellId: string;
  projectId: string;
  fileId: string;
  factionId: string;
  parentCellId: string | null;
  ordinal: number;
  text: string;
}

/** Live cells of these factions, grouped by faction in cell order. */
export async function liveCellsOfFactions(q: Queryable, factionIds: readonly string[]): Promise<Map<string, CellKey[]>> {
  const out = new Map<string, CellKey[]>();
  for (let i = 0; i < factionIds.length; i += 500) {
    const ids = factionIds.slice(i, i + 500);
    const rows = await q.all<{ cell_id: string; faction_id: string; ordinal: number; text: string; parent_cell_id: string | null }>(
      `SELECT cell_id, faction_id, ordinal, text, parent_cell_id FROM cells
       WHERE faction_id IN (${placeholders(ids.length)}) AND retired_at IS NULL ORDER BY ordinal`,
      ids,
    );
    for (const r of rows) {
      const list = out.get(r.faction_id) ?? [];
      list.push({ cellId: r.cell_id, factionId: r.faction_id, ordinal: Number(r.ordinal), text: r.text, parentCellId: r.parent_cell_id });
      out.set(r.faction_id, list);
    }
  }
  return out;
}

/** A file's live cells by faction, each faction's in ordinal order: one range of the `cells_file` index. */
export async function liveCellsOfFile(q: Queryable, fileId: string): Promise<Map<string, CellKey[]>> {
  const rows = await q.all<{ cell_id: string; faction_id: string; ordinal: number; text: string; parent_cell_id: string | null }>(
    "SELECT cell_id, faction_id, ordinal, text, parent_cell_id FROM cells WHERE file_id = ? AND retired_at IS NULL ORDER BY ordinal",
    [fileId],
  );
  const out = new Map<string, CellKey[]>();
  for (const r of rows) {
    const cell = { cellId: r.cell_id, factionId: r.faction_id, ordinal: Number(r.ordinal), text: r.text, parentCellId: r.parent_cell_id };
    const list = out.get(r.faction_id);
    if (list) list.push(cell);
    else out.set(r.faction_id, [cell]);
  }
  return out;
}

/**
 * A cell's update time as stored: milliseconds since 1970, which the
 * `cells` view turns back into the ISO string `now` was
 * (`0039-cell-times.sql`). A time that does not parse is refused, not stored
 * as 1970.
 */
function updatedMs(now: string): number {
  const ms = Date.parse(now);
  if (!Number.isFinite(ms)) throw new Error(`not a time: ${now}`);
  return ms;
}

/** What a retired cell keeps of its text: none, and so no place of its file's path. */
export const PURGED_CELL = "text = '', path_at = NULL";

/**
 * A cell's text as stored: without the first occurrence of its file's path,
 * and the count of characters (code points, as SQLite's `substr` counts)
 * before it, which the `cells` view puts the path back at
 * (`0041-cell-paths.sql`); as written when it holds no path.
 */
export function withoutPath(text: string, path: string): { text: string; pathAt: number | null } {
  const at = path === "" ? -1 : text.indexOf(path);
  if (at < 0) return { text, pathAt: null };
  const before = text.slice(0, at);
  return { text: before + text.slice(at + path.length), pathAt: Array.from(before).length };
}

async function pathsOf(q: Queryable, fileIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(fileIds)];
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const rows = await q.all<{ file_id: string; path: string }>(`SELECT file_id, path FROM files WHERE file_id IN (${placeholders(part.length)})`, part);
    for (const r of rows) out.set(r.file_id, r.path);
  }
  return out;
}

/**
 * Inserts cells into `cell_rows`, their project, file, faction and parent
 * named by rowid (`0032-faction-cell-rowids.sql`). New cells get their
 * rowids here, in order, so a cell's parent among them is known before it
 * is stored; a parent stored before is looked up.
 */
export async function insertCells(q: Queryable, cells: readonly NewCell[], now: string): Promise<void> {
  if (cells.length === 0) return;
  const first = await nextRowid(q, "cell_rows");
  const fresh = new Map(cells.map((c, k) => [c.cellId, first + k]));
  const projects = await rowidsOf(q, "projects", cells.map((c) => c.projectId));
  const files = await rowidsOf(q, "files", cells.map((c) => c.fileId));
  const paths = await pathsOf(q, cells.map((c) => c.fileId));
  const factions = await rowidsOf(q, "faction_rows", cells.map((c) => c.factionId));
  const parents = await rowidsOf(q, "cell_rows", cells.flatMap((c) => (c.parentCellId === null || fresh.has(c.parentCellId) ? [] : [c.parentCellId])));
  const parentRowid = (id: string | null) => (id === null ? null : (fresh.get(id) ?? rowidIn(parents, id, "cell")));
  await insertRows(
    q,
    "cell_rows",
    ["rowid", "cell_id", "project_rowid", "file_rowid", "faction_rowid", "parent_rowid", "ordinal", "text", "path_at", "updated_ms"],
    cells.map((c, k) => {
      const stored = withoutPath(c.text, paths.get(c.fileId) ?? "");
      return [
        first + k, c.cellId, rowidIn(projects, c.projectId, "project"), rowidIn(files, c.fileId, "file"),
        rowidIn(factions, c.factionId, "faction"), parentRowid(c.parentCellId), c.ordinal, stored.text, stored.pathAt, updatedMs(now),
      ];
    }),
  );
}

/** Re-threads a kept cell under a new parent and position. */
export async function placeCell(q: Queryable, cellId: string, parentCellId: string | null, ordinal: number, now: string): Promise<void> {
  await q.execute(
    "UPDATE cell_rows SET parent_rowid = (SELECT rowid FROM cell_rows WHERE cell_id = ?), ordinal = ?, updated_ms = ? WHERE cell_id = ?",
    [parentCellId, ordinal, updatedMs(now), cellId],
  );
}

/**
 * Retires cells, emptying their text: a retired cell keeps its id, faction
 * and place for lineage, not the words it held.
 */
export async function retireCells(q: Queryable, cellIds: readonly string[], now: string): Promise<void> {
  if (cellIds.length === 0) return;
  for (let i = 0; i < cellIds.length; i += 500) {
    const ids = cellIds.slice(i, i + 500);
    await q.execute(`UPDATE cell_rows SET retired_at = ?, ${PURGED_CELL} WHERE cell_id IN (${placeholders(ids.length)})`, [now, ...ids]);
  }
  await notePurge(q, now);
}
