import { newOrderedId } from "../../ids.js";
import type { Queryable } from "../db.js";
import type { EntityKind } from "./entities.js";
import { placeholders } from "../insert-rows.js";
import { rowidIn, rowidsOf } from "./row-keys.js";

/** An entity named in documents, with every normalized spelling that names it. */
export interface NamedEntity {
  name: string;
  normName: string;
  kind: EntityKind;
  normNames: readonly string[];
}

/** Source keys of document-named entities start with this. */
export const NAME_KEY = "name:";

/** Values per lookup or insert statement: well under SQLite's bound-variable limit. */
const LOOKUP_BATCH = 400;

/**
 * Finds each entity by any of its spellings in the project (so variants and
 * aliases across files meet in one entity) or creates it; records every
 * spelling. Answers the entity ids in the order asked.
 *
 * Set-wise: the spellings and keys are looked up in a few statements, the
 * entities are resolved in order in memory (a later entity meets the
 * spellings an earlier one recorded, as row by row), and the new entities
 * and spellings are written with multi-row inserts. Row by row, a
 * 2,000-line document's 800 entities cost 1,800 statements (about 100 ms
 * of each edit's transaction). Among several known spellings the entity of
 * the smallest is taken, as the single `IN … LIMIT 1` lookup did.
 */
export async function upsertNamedEntities(q: Queryable, projectId: string, entities: readonly NamedEntity[]): Promise<string[]> {
  if (entities.length === 0) return [];
  const normsOf = entities.map((e) => [...new Set([e.normName, ...e.normNames])].filter(Boolean));
  const aliases = await knownAliases(q, projectId, [...new Set(normsOf.flat())]);
  // Keys are needed only by entities none of whose spellings is stored.
  const keyed = entities.filter((_, i) => !normsOf[i]!.some((n) => aliases.has(n)));
  const keys = await knownKeys(q, projectId, keyed);
  const fresh: Array<{ entityId: string; entity: NamedEntity }> = [];
  const newAliases: Array<[string, string]> = [];
  const ids = entities.map((e, i) => {
    const norms = normsOf[i]!;
    const hit = norms.filter((n) => aliases.has(n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];
    let entityId = hit === undefined ? undefined : aliases.get(hit);
    if (entityId === undefined) {
      const key = `${e.kind}\u0000${e.normName}`;
      entityId = keys.get(key);
      if (entityId === undefined) {
        entityId = newOrderedId("ent");
        keys.set(key, entityId);
        fresh.push({ entityId, entity: e });
      }
    }
    for (const n of norms) {
      if (aliases.has(n)) continue;
      aliases.set(n, entityId);
      newAliases.push([n, entityId]);
    }
    return entityId;
  });
  const projectRowid = fresh.length === 0 ? 0 : rowidIn(await rowidsOf(q, "projects", [projectId]), projectId, "project");
  for (let i = 0; i < fresh.length; i += LOOKUP_BATCH / 6) {
    const slice = fresh.slice(i, i + LOOKUP_BATCH / 6);
    await q.execute(
      `INSERT INTO entity_rows (entity_id, project_rowid, name, norm_name, kind, source_key)
       VALUES ${slice.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`,
      slice.flatMap(({ entityId, entity: e }) => [entityId, projectRowid, e.name, e.normName, e.kind, `${NAME_KEY}${e.normName}`]),
    );
  }
  for (let i = 0; i < newAliases.length; i += LOOKUP_BATCH / 3) {
    const slice = newAliases.slice(i, i + LOOKUP_BATCH / 3);
    await q.execute(
      `INSERT OR IGNORE INTO entity_aliases (project_id, norm_name, entity_id) VALUES ${slice.map(() => "(?, ?, ?)").join(", ")}`,
      slice.flatMap(([n, id]) => [projectId, n, id]),
    );
  }
  return ids;
}

/** The stored spellings among `norms`, with the entity each names. */
async function knownAliases(q: Queryable, projectId: string, norms: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < norms.length; i += LOOKUP_BATCH) {
    const slice = norms.slice(i, i + LOOKUP_BATCH);
    const rows = await q.all<{ norm_name: string; entity_id: string }>(
      `SELECT norm_name, entity_id FROM entity_aliases WHERE project_id = ? AND norm_name IN (${placeholders(slice.length)})`,
      [projectId, ...slice],
    );
    for (const r of rows) found.set(r.norm_name, r.entity_id);
  }
  return found;
}

/** Stored entities with the source keys of `entities`, by `kind NUL normName` (looked up per kind, on the unique key's index). */
async function knownKeys(q: Queryable, projectId: string, entities: readonly NamedEntity[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const byKind = new Map<string, Set<string>>();
  for (const e of entities) byKind.set(e.kind, (byKind.get(e.kind) ?? new Set()).add(`${NAME_KEY}${e.normName}`));
  for (const [kind, set] of byKind) {
    const keys = [...set];
    for (let i = 0; i < keys.length; i += LOOKUP_BATCH) {
      const slice = keys.slice(i, i + LOOKUP_BATCH);
      const rows = await q.all<{ source_key: string; entity_id: string }>(
        `SELECT source_key, entity_id FROM entities WHERE project_id = ? AND kind = ? AND source_key IN (${placeholders(slice.length)})`,
        [projectId, kind, ...slice],
      );
      for (const r of rows) found.set(`${kind}\u0000${r.source_key.slice(NAME_KEY.length)}`, r.entity_id);
    }
  }
  return found;
}

/** Drops the document-entity and symbol-mention links of a file's cells, before its reading writes them anew. */
export async function unlinkFileMentions(q: Queryable, projectId: string, fileId: string): Promise<void> {
  // Driven from the file's cells (cells by file, then each cell's links; CROSS
  // JOIN fixes that order for SQLite's planner): starting from the project's
  // entities made every file cost more as the project's entities grew.
  await q.execute(
    `DELETE FROM cell_entities WHERE (cell_rowid, entity_rowid) IN (
       SELECT ce.cell_rowid, ce.entity_rowid FROM cells c
       CROSS JOIN cell_entities ce ON ce.cell_rowid = c.rowid
       CROSS JOIN entities e ON e.rowid = ce.entity_rowid
       WHERE c.file_id = ? AND e.project_id = ? AND (e.kind = 'symbol' OR e.source_key LIKE '${NAME_KEY}%'))`,
    [fileId, projectId],
  );
  await q.execute("DELETE FROM symbol_mentions WHERE cell_rowid IN (SELECT rowid FROM cells WHERE file_id = ?)", [fileId]);
}

/** Records code identifiers mentioned by cells. */
export async function recordSymbolMentions(q: Queryable, projectId: string, mentions: ReadonlyArray<{ cellId: string; name: string }>): Promise<void> {
  for (let i = 0; i < mentions.length; i += 300) {
    const slice = mentions.slice(i, i + 300);
    await q.execute(
      `INSERT OR IGNORE INTO symbol_mentions (cell_rowid, project_rowid, name)
       SELECT c.rowid, p.rowid, v.column2 FROM (VALUES ${slice.map(() => "(?, ?)").join(", ")}) v
       CROSS JOIN cell_rows c ON c.cell_id = v.column1 CROSS JOIN projects p ON p.project_id = ?`,
      [...slice.flatMap((m) => [m.cellId, m.name]), projectId],
    );
  }
}

/**
 * The live symbols' entities each of `names` names (as a name or a
 * qualified name), for the names that name at most `most` of them; a name
 * naming none or more is left out. Each name is two index searches that
 * stop at `most + 1` entities. Joining the names' mentions to their symbols
 * in one statement, as was done, read every mention of a common name
 * (`get`, `__init__`) times every symbol of it, only to drop them all for
 * naming too many: on the 1 M-line tree that join grew six times faster
 * than the tree (1.4 → 8.9 µs a line of the writer thread from 0.25 M).
 */
export async function symbolEntitiesOfNames(q: Queryable, projectId: string, names: readonly string[], most: number): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  const of = (column: string) =>
    `SELECT DISTINCT entity_id FROM symbols WHERE project_id = ? AND ${column} = ? AND retired_at IS NULL AND entity_id IS NOT NULL LIMIT ${most + 1}`;
  for (const name of new Set(names)) {
    const entities = new Set<string>();
    for (const column of ["name", "qualified_name"]) {
      for (const r of await q.all<{ entity_id: string }>(of(column), [projectId, name])) entities.add(r.entity_id);
      if (entities.size > most) break;
    }
    if (entities.size > 0 && entities.size <= most) found.set(name, [...entities]);
  }
  return found;
}

/** Which of these names some cell of the project mentions (one statement; each name an index search stopping at its first mention). */
export async function mentionedNames(q: Queryable, projectId: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  // One statement for all the names; each EXISTS stops at the name's first mention.
  const rows = await q.all<{ name: string }>(
    `SELECT j.value AS name FROM json_each(?) j WHERE EXISTS (
       SELECT 1 FROM symbol_mentions m WHERE m.project_rowid = (SELECT rowid FROM projects WHERE project_id = ?) AND m.name = j.value)`,
    [JSON.stringify([...new Set(names)]), projectId],
  );
  return rows.map((r) => r.name);
}

/** The cells of the project that mention each of these names (their recorded symbol mentions). */
export async function mentionsOfNames(q: Queryable, projectId: string, names: readonly string[]): Promise<Array<{ cellId: string; name: string }>> {
  const mentions: Array<{ cellId: string; name: string }> = [];
  for (let i = 0; i < names.length; i += LOOKUP_BATCH) {
    const slice = names.slice(i, i + LOOKUP_BATCH);
    const rows = await q.all<{ cell_id: string; name: string }>(
      `SELECT c.cell_id, m.name FROM symbol_mentions m CROSS JOIN cell_rows c ON c.rowid = m.cell_rowid
       WHERE m.project_rowid = (SELECT rowid FROM projects WHERE project_id = ?) AND m.name IN (${placeholders(slice.length)})`,
      [projectId, ...slice],
    );
    for (const r of rows) mentions.push({ cellId: r.cell_id, name: r.name });
  }
  return mentions;
}
