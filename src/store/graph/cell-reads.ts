import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { ENTITY_ROWID } from "./cell-entity-keys.js";

/** Filters of a cell read; every one optional. */
export interface CellFilter {
  projectIds: readonly string[];
  fileIds?: readonly string[];
  factionId?: string;
  parentCellId?: string;
  entityId?: string;
}

export interface CellRow {
  cellId: string;
  projectId: string;
  fileId: string;
  factionId: string;
  parentCellId: string | null;
  text: string;
  updatedAt: string;
  entityIds: string[];
}

/** How a filter names the cells' project, files, faction and parent. */
interface CellKeys {
  projects: (n: number) => string;
  files: (n: number) => string;
  faction: string;
  parent: string;
}

/** By the `cells` view's public ids (a listing: SQLite leaves out the joins the read does not use). */
const BY_ID: CellKeys = {
  projects: (n) => `c.project_id IN (${placeholders(n)})`,
  files: (n) => `c.file_id IN (${placeholders(n)})`,
  faction: "c.faction_id = ?",
  parent: "c.parent_cell_id = ?",
};

/**
 * On `cell_rows` itself, ids turned into rowids by key searches: a count
 * over the `cells` view would look up every row's file, faction and parent
 * for columns it does not use (SQLite leaves out an unused joined table in
 * a listing, not in an aggregate).
 */
const BY_ROWID: CellKeys = {
  projects: (n) => `c.project_rowid IN (SELECT rowid FROM projects WHERE project_id IN (${placeholders(n)}))`,
  files: (n) => `c.file_rowid IN (SELECT rowid FROM files WHERE file_id IN (${placeholders(n)}))`,
  faction: "c.faction_rowid = (SELECT rowid FROM faction_rows WHERE faction_id = ?)",
  parent: "c.parent_rowid = (SELECT rowid FROM cell_rows WHERE cell_id = ?)",
};

function where(f: CellFilter, keys: CellKeys = BY_ID): { sql: string; args: InValue[] } {
  const parts = ["c.retired_at IS NULL", keys.projects(f.projectIds.length)];
  const args: InValue[] = [...f.projectIds];
  if (f.fileIds?.length) {
    parts.push(keys.files(f.fileIds.length));
    args.push(...f.fileIds);
  }
  if (f.factionId) {
    parts.push(keys.faction);
    args.push(f.factionId);
  }
  if (f.parentCellId) {
    parts.push(keys.parent);
    args.push(f.parentCellId);
  }
  if (f.entityId) {
    parts.push(`EXISTS (SELECT 1 FROM cell_entities ce WHERE ce.cell_rowid = c.rowid AND ce.entity_rowid = (${ENTITY_ROWID}))`);
    args.push(f.entityId);
  }
  return { sql: parts.join(" AND "), args };
}

/** One page of live cells by id, after `afterId`, with the entities each backs. */
export async function readCellPage(q: Queryable, f: CellFilter, afterId: string | undefined, limit: number): Promise<CellRow[]> {
  const w = where(f);
  const rows = await q.all<CellColumns>(
    `SELECT c.cell_id, c.project_id, c.file_id, c.faction_id, c.parent_cell_id, c.text, c.updated_at FROM cells c
     WHERE ${w.sql} ${afterId ? "AND c.cell_id > ?" : ""} ORDER BY c.cell_id LIMIT ?`,
    [...w.args, ...(afterId ? [afterId] : []), limit],
  );
  const links = await entityLinks(q, rows.map((r) => r.cell_id));
  return rows.map((r) => toCellRow(r, links.get(r.cell_id) ?? []));
}

/** The columns of a cell row as read. */
export interface CellColumns {
  cell_id: string;
  project_id: string;
  file_id: string;
  faction_id: string;
  parent_cell_id: string | null;
  text: string;
  updated_at: string;
}

/** A cell row from its columns and the entities it backs. */
export function toCellRow(r: CellColumns, entityIds: string[]): CellRow {
  return {
    cellId: r.cell_id,
    projectId: r.project_id,
    fileId: r.file_id,
    factionId: r.faction_id,
    parentCellId: r.parent_cell_id,
    text: r.text,
    updatedAt: r.updated_at,
    entityIds,
  };
}

/** How many live cells the filter selects. */
export async function countCells(q: Queryable, f: CellFilter): Promise<number> {
  const w = where(f, BY_ROWID);
  const row = await q.get<{ n: number }>(`SELECT count(*) AS n FROM cell_rows c WHERE ${w.sql}`, w.args);
  return Number(row?.n ?? 0);
}

/** Live sections (factions) of these files. */
export async function countFileSections(q: Queryable, fileIds: readonly string[]): Promise<number> {
  const row = await q.get<{ n: number }>(
    `SELECT count(*) AS n FROM factions WHERE retired_at IS NULL AND file_id IN (${placeholders(fileIds.length)})`,
    [...fileIds],
  );
  return Number(row?.n ?? 0);
}

/** The entities each cell backs, by cell id, in entity id order. */
export async function entityLinks(q: Queryable, cellIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (cellIds.length === 0) return out;
  const rows = await q.all<{ cell_id: string; entity_id: string }>(
    `SELECT c.cell_id, e.entity_id FROM cells c JOIN cell_entities ce ON ce.cell_rowid = c.rowid JOIN entities e ON e.rowid = ce.entity_rowid
     WHERE c.cell_id IN (${placeholders(cellIds.length)}) ORDER BY e.entity_id`,
    [...cellIds],
  );
  for (const r of rows) out.set(r.cell_id, [...(out.get(r.cell_id) ?? []), r.entity_id]);
  return out;
}
