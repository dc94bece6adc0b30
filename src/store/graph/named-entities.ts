import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";
import type { EntityKind } from "./entities.js";
import { placeholders } from "../insert-rows.js";

/** An entity named in documents, with every normalized spelling that names it. */
export interface NamedEntity {
  name: string;
  normName: string;
  kind: EntityKind;
  normNames: readonly string[];
}

/** Source keys of document-named entities start with this. */
export const NAME_KEY = "name:";

/**
 * Finds each entity by any of its spellings in the project (so variants and
 * aliases across files meet in one entity) or creates it; records every
 * spelling. Answers the entity ids in the order asked.
 */
export async function upsertNamedEntities(q: Queryable, projectId: string, entities: readonly NamedEntity[], now: string): Promise<string[]> {
  const ids: string[] = [];
  for (const e of entities) {
    const norms = [...new Set([e.normName, ...e.normNames])].filter(Boolean);
    const known = await q.get<{ entity_id: string }>(
      `SELECT entity_id FROM entity_aliases WHERE project_id = ? AND norm_name IN (${placeholders(norms.length)}) LIMIT 1`,
      [projectId, ...norms],
    );
    const entityId = known?.entity_id ?? newId("ent");
    if (!known) {
      await q.execute(
        `INSERT INTO entities (entity_id, project_id, name, norm_name, kind, source_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, kind, source_key) DO NOTHING`,
        [entityId, projectId, e.name, e.normName, e.kind, `${NAME_KEY}${e.normName}`, now, now],
      );
    }
    const real = known?.entity_id ?? (await entityByKey(q, projectId, e.kind, e.normName)) ?? entityId;
    for (const n of norms) {
      await q.execute("INSERT OR IGNORE INTO entity_aliases (project_id, norm_name, entity_id) VALUES (?, ?, ?)", [projectId, n, real]);
    }
    ids.push(real);
  }
  return ids;
}

async function entityByKey(q: Queryable, projectId: string, kind: string, normName: string): Promise<string | undefined> {
  const row = await q.get<{ entity_id: string }>(
    "SELECT entity_id FROM entities WHERE project_id = ? AND kind = ? AND source_key = ?",
    [projectId, kind, `${NAME_KEY}${normName}`],
  );
  return row?.entity_id;
}

/** Drops the document-entity and symbol-mention links of a file's cells, before its reading writes them anew. */
export async function unlinkFileMentions(q: Queryable, projectId: string, fileId: string): Promise<void> {
  // Driven from the file's cells (cells by file, then each cell's links; CROSS
  // JOIN fixes that order for SQLite's planner): starting from the project's
  // entities made every file cost more as the project's entities grew.
  await q.execute(
    `DELETE FROM cell_entities WHERE rowid IN (
       SELECT ce.rowid FROM cells c
       CROSS JOIN cell_entities ce ON ce.cell_id = c.cell_id
       CROSS JOIN entities e ON e.entity_id = ce.entity_id
       WHERE c.file_id = ? AND e.project_id = ? AND (e.kind = 'symbol' OR e.source_key LIKE '${NAME_KEY}%'))`,
    [fileId, projectId],
  );
  await q.execute("DELETE FROM symbol_mentions WHERE cell_id IN (SELECT cell_id FROM cells WHERE file_id = ?)", [fileId]);
}

/** Records code identifiers mentioned by cells. */
export async function recordSymbolMentions(q: Queryable, projectId: string, mentions: ReadonlyArray<{ cellId: string; name: string }>): Promise<void> {
  for (let i = 0; i < mentions.length; i += 300) {
    const slice = mentions.slice(i, i + 300);
    await q.execute(
      `INSERT OR IGNORE INTO symbol_mentions (cell_id, project_id, name) VALUES ${slice.map(() => "(?, ?, ?)").join(", ")}`,
      slice.flatMap((m) => [m.cellId, projectId, m.name]),
    );
  }
}

/** Mentions of these names (or all of the project's) joined to the live symbols they may name. */
export async function symbolMentionCandidates(
  q: Queryable,
  projectId: string,
  names?: readonly string[],
): Promise<Array<{ cellId: string; name: string; entityId: string }>> {
  if (names && names.length === 0) return [];
  const filter = names ? `AND m.name IN (${placeholders(names.length)})` : "";
  // Two joins, each on an index (symbols by name, symbols by qualified name): one join on
  // `name OR qualified_name` could use neither and scanned every symbol for every mention.
  const join = (column: string) =>
    `SELECT m.cell_id, m.name, s.entity_id FROM symbol_mentions m
     JOIN symbols s ON s.project_id = m.project_id AND s.${column} = m.name AND s.retired_at IS NULL AND s.entity_id IS NOT NULL
     WHERE m.project_id = ? ${filter}`;
  const rows = await q.all<{ cell_id: string; name: string; entity_id: string }>(`${join("name")} UNION ${join("qualified_name")}`, [
    projectId,
    ...(names ?? []),
    projectId,
    ...(names ?? []),
  ]);
  return rows.map((r) => ({ cellId: r.cell_id, name: r.name, entityId: r.entity_id }));
}
