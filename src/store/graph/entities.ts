import { newOrderedId } from "../../ids.js";
import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";
import { pairRowids } from "./cell-entity-keys.js";
import { rowidIn, rowidsOf } from "./row-keys.js";

/** Entity kinds (DECISIONS.md vocabulary). */
export type EntityKind =
  | "person" | "organization" | "product" | "place" | "event" | "concept"
  | "document" | "file" | "module" | "symbol" | "category" | "record";

/** An entity named by what it stands for: `(kind, sourceKey)` is unique in a project. */
export interface SourcedEntity {
  kind: EntityKind;
  /** What the entity stands for: a symbol id, a file id, a folder path… */
  sourceKey: string;
  name: string;
  /** `normalizeName(name)`. */
  normName: string;
}

/** A cell backing an entity. */
export interface CellEntityLink {
  cellId: string;
  entityId: string;
}

const BATCH = 500;

/** The map key of an entity in `upsertSourcedEntities`' answer. */
export function sourcedKey(kind: EntityKind, sourceKey: string): string {
  return `${kind}\u0000${sourceKey}`;
}

async function existingIds(q: Queryable, projectId: string, kind: EntityKind, keys: readonly string[]) {
  const found = new Map<string, { entityId: string; name: string }>();
  for (let i = 0; i < keys.length; i += BATCH) {
    const slice = keys.slice(i, i + BATCH);
    const rows = await q.all<{ entity_id: string; source_key: string; name: string }>(
      `SELECT entity_id, source_key, name FROM entities WHERE project_id = ? AND kind = ? AND source_key IN (${placeholders(slice.length)})`,
      [projectId, kind, ...slice],
    );
    for (const r of rows) found.set(r.source_key, { entityId: r.entity_id, name: r.name });
  }
  return found;
}

/**
 * Creates the entities that do not exist yet and renames those whose name
 * changed; an entity keeps its id for as long as its source key lives.
 * Answers `sourcedKey(kind, sourceKey)` → entity id for every one asked.
 */
export async function upsertSourcedEntities(
  q: Queryable,
  projectId: string,
  entities: readonly SourcedEntity[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const kinds = [...new Set(entities.map((e) => e.kind))];
  for (const kind of kinds) {
    const wanted = entities.filter((e) => e.kind === kind);
    const found = await existingIds(q, projectId, kind, [...new Set(wanted.map((e) => e.sourceKey))]);
    const fresh: SourcedEntity[] = [];
    for (const e of wanted) {
      const old = found.get(e.sourceKey);
      const key = sourcedKey(kind, e.sourceKey);
      if (ids.has(key)) continue;
      if (!old) fresh.push(e);
      else if (old.name !== e.name) {
        await q.execute("UPDATE entity_rows SET name = ?, norm_name = ? WHERE entity_id = ?", [e.name, e.normName, old.entityId]);
      }
      ids.set(key, old?.entityId ?? newOrderedId("ent"));
    }
    if (fresh.length === 0) continue;
    const projectRowid = rowidIn(await rowidsOf(q, "projects", [projectId]), projectId, "project");
    await insertRows(
      q,
      "entity_rows",
      ["entity_id", "project_rowid", "name", "norm_name", "kind", "source_key"],
      fresh.map((e) => [ids.get(sourcedKey(kind, e.sourceKey))!, projectRowid, e.name, e.normName, kind, e.sourceKey]),
    );
  }
  return ids;
}

/** Records that cells back entities; links already there are left alone. */
export async function linkCellEntities(q: Queryable, links: readonly CellEntityLink[]): Promise<void> {
  for (let i = 0; i < links.length; i += BATCH) {
    const slice = links.slice(i, i + BATCH);
    await q.execute(
      `INSERT OR IGNORE INTO cell_entities (cell_rowid, entity_rowid) ${pairRowids(slice.length)}`,
      slice.flatMap((l) => [l.cellId, l.entityId]),
    );
  }
}

/** Removes every entity link of these cells. */
export async function unlinkCells(q: Queryable, cellIds: readonly string[]): Promise<void> {
  for (let i = 0; i < cellIds.length; i += BATCH) {
    const slice = cellIds.slice(i, i + BATCH);
    await q.execute(`DELETE FROM cell_entities WHERE cell_rowid IN (SELECT rowid FROM cells WHERE cell_id IN (${placeholders(slice.length)}))`, slice);
  }
}
