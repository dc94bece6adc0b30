import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { linkCellEntities, sourcedKey, upsertSourcedEntities } from "../graph/entities.js";

/** A type entity of a project. */
export interface CategoryRow {
  entityId: string;
  name: string;
}

/** The types of a project. */
export async function readCategories(q: Queryable, projectId: string): Promise<CategoryRow[]> {
  return (
    await q.all<{ entity_id: string; name: string }>("SELECT entity_id, name FROM entities WHERE project_id = ? AND kind = 'category' ORDER BY entity_id", [
      projectId,
    ])
  ).map((r) => ({ entityId: r.entity_id, name: r.name }));
}

/** The type entity named `name` (its normalised form `normName`), created when missing. */
export async function ensureCategory(q: Queryable, projectId: string, name: string, normName: string, now: string): Promise<string> {
  const ids = await upsertSourcedEntities(q, projectId, [{ kind: "category", sourceKey: `category:${normName}`, name, normName }]);
  return ids.get(sourcedKey("category", `category:${normName}`))!;
}

/** One member as filed: the entity, the factions of its section, and the cells that back it and its type. */
export interface MemberFiling {
  entityId: string;
  factionIds: readonly string[];
  /** Cells of the section: they back the member. */
  cellIds: readonly string[];
  /** The section's anchor cell (its heading): it also backs the type, so the type is listed. */
  anchorCellId: string | undefined;
}

/**
 * Files a member under a type: the entity gets the type, the section's
 * factions answer to the type, and its cells back the member (and its anchor
 * cell the type). Idempotent: filing again changes nothing.
 */
export async function fileMember(q: Queryable, categoryEntityId: string, m: MemberFiling): Promise<void> {
  await q.execute("UPDATE entity_rows SET type_entity_id = ? WHERE entity_id = ? AND (type_entity_id IS NULL OR type_entity_id != ?)", [
    categoryEntityId,
    m.entityId,
    categoryEntityId,
  ]);
  for (const factionId of m.factionIds) {
    await q.execute("INSERT OR IGNORE INTO category_members (faction_id, category_entity_id, entity_id) VALUES (?, ?, ?)", [
      factionId,
      categoryEntityId,
      m.entityId,
    ]);
  }
  const links = m.cellIds.map((cellId) => ({ cellId, entityId: m.entityId }));
  if (m.anchorCellId) links.push({ cellId: m.anchorCellId, entityId: categoryEntityId });
  await linkCellEntities(q, links);
}

/** Whether an entity is a type (kind `category`) of these projects; undefined when there is no such entity. */
export async function entityKind(q: Queryable, projectIds: readonly string[], entityId: string): Promise<string | undefined> {
  const row = await q.get<{ kind: string }>(`SELECT kind FROM entities WHERE entity_id = ? AND project_id IN (${placeholders(projectIds.length)})`, [
    entityId,
    ...projectIds,
  ]);
  return row?.kind;
}
