import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";

export interface EntityFilter {
  projectIds: readonly string[];
  kind?: string;
  typeEntityId?: string;
  role?: string;
}

export interface EntityRow {
  entityId: string;
  projectId: string;
  name: string;
  normName: string;
  kind: string;
  typeEntityId: string | null;
  cellCount: number;
}

interface Row {
  entity_id: string;
  project_id: string;
  name: string;
  norm_name: string;
  kind: string;
  type_entity_id: string | null;
  cell_count: number;
}

const toEntity = (r: Row): EntityRow => ({
  entityId: r.entity_id,
  projectId: r.project_id,
  name: r.name,
  normName: r.norm_name,
  kind: r.kind,
  typeEntityId: r.type_entity_id,
  cellCount: Number(r.cell_count),
});

/**
 * An entity's live cells, as `entity_cell_counts` keeps them
 * (`0038-entity-cell-counts.sql`): one row read, where counting the links
 * read every cell of a much-named entity on each page.
 */
const CELL_COUNT = `coalesce((SELECT live FROM entity_cell_counts ec WHERE ec.entity_rowid = e.rowid), 0)`;

function where(f: EntityFilter): { sql: string; args: InValue[] } {
  const parts = [`e.project_id IN (${placeholders(f.projectIds.length)})`];
  const args: InValue[] = [...f.projectIds];
  if (f.kind) {
    parts.push("e.kind = ?");
    args.push(f.kind);
  }
  if (f.typeEntityId) {
    parts.push("e.type_entity_id = ?");
    args.push(f.typeEntityId);
  }
  if (f.role) {
    parts.push("EXISTS (SELECT 1 FROM entity_roles r WHERE r.entity_id = e.entity_id AND r.role = ?)");
    args.push(f.role);
  }
  return { sql: parts.join(" AND "), args };
}

/** Whether an entity backs a live cell. */
const BACKS_A_CELL = `EXISTS (SELECT 1 FROM entity_cell_counts ec WHERE ec.entity_rowid = e.rowid AND ec.live > 0)`;

/**
 * One page of entities backing at least one live cell, by id: walked in the
 * order of `entities_project_order` (`0028-entity-listing-order.sql`) and
 * stopped at the page's end, counting the cells of the page's entities only.
 */
export async function readEntityPage(q: Queryable, f: EntityFilter, afterId: string | undefined, limit: number): Promise<EntityRow[]> {
  const w = where(f);
  const rows = await q.all<Row>(
    `SELECT e.*, ${CELL_COUNT} AS cell_count FROM entities e
     WHERE ${w.sql} ${afterId ? "AND e.entity_id > ?" : ""} AND ${BACKS_A_CELL}
     ORDER BY e.entity_id LIMIT ?`,
    [...w.args, ...(afterId ? [afterId] : []), limit],
  );
  return rows.map(toEntity);
}

/** Entities whose normalized name contains any of the words (visible ones only), at most `scan` of them. */
export async function entitiesMatchingWords(q: Queryable, f: EntityFilter, words: readonly string[], scan: number): Promise<EntityRow[]> {
  if (words.length === 0) return [];
  const w = where(f);
  const like = words.map(() => "e.norm_name LIKE ? ESCAPE '\\'").join(" OR ");
  const rows = await q.all<Row>(
    `SELECT * FROM (SELECT e.*, ${CELL_COUNT} AS cell_count FROM entities e WHERE ${w.sql} AND (${like}) LIMIT ?)
     WHERE cell_count > 0`,
    [...w.args, ...words.map((x) => `%${x.replace(/[\\%_]/g, (m) => `\\${m}`)}%`), scan],
  );
  return rows.map(toEntity);
}

/** An entity of one of these projects, whether or not it backs a cell. */
export async function findEntity(q: Queryable, projectIds: readonly string[], entityId: string): Promise<EntityRow | undefined> {
  const row = await q.get<Row>(
    `SELECT e.*, ${CELL_COUNT} AS cell_count FROM entities e WHERE e.entity_id = ? AND e.project_id IN (${placeholders(projectIds.length)})`,
    [entityId, ...projectIds],
  );
  return row && toEntity(row);
}

/** A type (category) entity found by id or, case-insensitively, by name. */
export async function findCategory(q: Queryable, projectIds: readonly string[], idOrName: string): Promise<EntityRow | undefined> {
  const row = await q.get<Row>(
    `SELECT e.*, 0 AS cell_count FROM entities e WHERE e.kind = 'category' AND e.project_id IN (${placeholders(projectIds.length)})
     AND (e.entity_id = ? OR lower(e.name) = lower(?)) LIMIT 1`,
    [...projectIds, idOrName, idOrName],
  );
  return row && toEntity(row);
}

/** Replaces an entity's roles. */
export async function setEntityRoles(q: Queryable, entityId: string, roles: readonly string[]): Promise<void> {
  await q.execute("DELETE FROM entity_roles WHERE entity_id = ?", [entityId]);
  for (const role of new Set(roles)) await q.execute("INSERT INTO entity_roles (entity_id, role) VALUES (?, ?)", [entityId, role]);
}

export async function entityRoles(q: Queryable, entityId: string): Promise<string[]> {
  const rows = await q.all<{ role: string }>("SELECT role FROM entity_roles WHERE entity_id = ? ORDER BY role", [entityId]);
  return rows.map((r) => r.role);
}
