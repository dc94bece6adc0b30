import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";

export interface EntityBrief {
  entityId: string;
  kind: string;
  name: string;
}

export interface CellBrief {
  cellId: string;
  fileId: string;
  factionId: string;
  text: string;
}

export interface Link {
  cellId: string;
  entityId: string;
}

/**
 * Entities of these projects whose name or normalized name is one of
 * `names` (lower-cased), backing a live cell, by project, kind and id (at
 * most 50). Each half of the name test is its own index look-up
 * (`entities_norm`, `entities_lower_name`): as one `OR` the planner read
 * every entity of the project.
 */
export async function entitiesNamed(q: Queryable, projectIds: readonly string[], names: readonly string[]): Promise<EntityBrief[]> {
  if (names.length === 0) return [];
  const p = placeholders(names.length);
  const projects = placeholders(projectIds.length);
  const rows = await q.all<{ entity_id: string; kind: string; name: string }>(
    `SELECT e.entity_id, e.kind, e.name FROM entities e
     WHERE e.entity_id IN (
         SELECT entity_id FROM entities WHERE project_id IN (${projects}) AND norm_name IN (${p})
         UNION ALL SELECT entity_id FROM entities WHERE project_id IN (${projects}) AND lower(name) IN (${p}))
       AND EXISTS (SELECT 1 FROM cell_entities ce JOIN cells c ON c.rowid = ce.cell_rowid WHERE ce.entity_rowid = e.rowid AND c.retired_at IS NULL)
     ORDER BY e.project_id, e.kind, e.entity_id LIMIT 50`,
    [...projectIds, ...names, ...projectIds, ...names],
  );
  return rows.map((r) => ({ entityId: r.entity_id, kind: r.kind, name: r.name }));
}

/** Live cells linked to each entity, at most `perEntity` each. */
export async function linksOfEntities(q: Queryable, entityIds: readonly string[], perEntity: number): Promise<Link[]> {
  if (entityIds.length === 0) return [];
  const rows = await q.all<{ cell_id: string; entity_id: string }>(
    `SELECT cell_id, entity_id FROM (
       SELECT c.cell_id, e.entity_id, row_number() OVER (PARTITION BY e.entity_id ORDER BY c.cell_id) AS k
       FROM entities e JOIN cell_entities ce ON ce.entity_rowid = e.rowid JOIN cells c ON c.rowid = ce.cell_rowid
       WHERE e.entity_id IN (${placeholders(entityIds.length)}) AND c.retired_at IS NULL)
     WHERE k <= ?`,
    [...entityIds, perEntity],
  );
  return rows.map((r) => ({ cellId: r.cell_id, entityId: r.entity_id }));
}

/** Entity links of these cells. */
export async function linksOfCells(q: Queryable, cellIds: readonly string[]): Promise<Link[]> {
  const out: Link[] = [];
  for (let i = 0; i < cellIds.length; i += 500) {
    const ids = cellIds.slice(i, i + 500);
    const rows = await q.all<{ cell_id: string; entity_id: string }>(
      `SELECT c.cell_id, e.entity_id FROM cells c JOIN cell_entities ce ON ce.cell_rowid = c.rowid JOIN entities e ON e.rowid = ce.entity_rowid
       WHERE c.cell_id IN (${placeholders(ids.length)}) ORDER BY c.cell_id, e.entity_id`,
      ids,
    );
    out.push(...rows.map((r) => ({ cellId: r.cell_id, entityId: r.entity_id })));
  }
  return out;
}

/** Cells by id (live only). */
export async function cellBriefs(q: Queryable, cellIds: readonly string[]): Promise<CellBrief[]> {
  const out: CellBrief[] = [];
  for (let i = 0; i < cellIds.length; i += 500) {
    const ids = cellIds.slice(i, i + 500);
    const rows = await q.all<{ cell_id: string; file_id: string; faction_id: string; text: string }>(
      `SELECT cell_id, file_id, faction_id, text FROM cells WHERE retired_at IS NULL AND cell_id IN (${placeholders(ids.length)})`,
      ids,
    );
    out.push(...rows.map((r) => ({ cellId: r.cell_id, fileId: r.file_id, factionId: r.faction_id, text: r.text })));
  }
  return out;
}

/** Entities by id. */
export async function entityBriefs(q: Queryable, entityIds: readonly string[]): Promise<EntityBrief[]> {
  if (entityIds.length === 0) return [];
  const rows = await q.all<{ entity_id: string; kind: string; name: string }>(
    `SELECT entity_id, kind, name FROM entities WHERE entity_id IN (${placeholders(entityIds.length)})`,
    [...entityIds],
  );
  return rows.map((r) => ({ entityId: r.entity_id, kind: r.kind, name: r.name }));
}
