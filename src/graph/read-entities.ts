import type { Page } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import { ENTITY_KINDS } from "../vocabulary.js";
import { normalizeName } from "../entities/normalize-name.js";
import type { Queryable } from "../store/db.js";
import { entitiesMatchingWords, findCategory, findEntity, readEntityPage, setEntityRoles } from "../store/graph/entity-reads.js";
import type { EntityFilter, EntityRow } from "../store/graph/entity-reads.js";
import type { Entity } from "./resources.js";

export type { Entity } from "./resources.js";

/** The filters of an entities read, parsed. */
export interface EntityQuery {
  entityType?: string | undefined;
  role?: string | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** A role name: 1–64 letters, digits, spaces, `_` or `-`, starting with a letter. */
export const ROLE_NAME = /^[A-Za-z][A-Za-z0-9 _-]{0,63}$/;

const KINDS: ReadonlySet<string> = new Set(ENTITY_KINDS);
/** Candidates scanned for a `q` read before ranking. */
const Q_SCAN = 2000;

/** The Entity resource of a stored entity. */
export const toEntity = (e: EntityRow): Entity => ({
  entityId: e.entityId,
  name: e.name,
  kind: e.kind,
  cellCount: e.cellCount,
  projectId: e.projectId,
  typeEntityId: e.typeEntityId,
});

/**
 * `GET /v1/projects/{projectId}/entities`: entities backing at least one
 * live cell. `entityType=Category` lists the types; another value names a
 * kind or a type (by id or name). `q` ranks by name, unpaginated.
 */
export async function readEntities(q: Queryable, scope: Scope, query: EntityQuery, tools: Pick<Tools, "cursors">): Promise<Page<Entity>> {
  const filter = await entityFilter(q, scope, query);
  if (!filter) return { rows: [], nextCursor: "" };
  if (query.q !== undefined && query.q.trim() !== "") {
    if (query.cursor) throw new AppError("invalid_cursor");
    return { rows: (await bestMatches(q, filter, query.q, query.limit)).map(toEntity), nextCursor: "" };
  }
  const page = await keysetPage(
    tools.cursors,
    { name: "entities", projectId: scope.projectId, query },
    (after, n) => readEntityPage(q, filter, after, n),
    (e) => e.entityId,
  );
  return { rows: page.rows.map(toEntity), nextCursor: page.nextCursor };
}

/** The filter, or undefined when `entityType` names nothing (an empty answer). */
async function entityFilter(q: Queryable, scope: Scope, query: EntityQuery): Promise<EntityFilter | undefined> {
  const filter: EntityFilter = { projectIds: scope.projectIds };
  if (query.role) filter.role = query.role;
  const type = query.entityType?.trim();
  if (!type) return filter;
  if (type === "Category") return { ...filter, kind: "category" };
  if (KINDS.has(type)) return { ...filter, kind: type };
  const category = await findCategory(q, scope.projectIds, type);
  return category ? { ...filter, typeEntityId: category.entityId } : undefined;
}

/**
 * Names matching `q`, best first. The query is normalised as names are
 * (`normalizeName`: camelCase and snake_case split, lower-cased, singular),
 * so `parseConfig`, `parse_config` and "parse config" all find the entity
 * `parseConfig`, whose normalised name is `parse config`.
 */
async function bestMatches(db: Queryable, filter: EntityFilter, q: string, limit: number): Promise<EntityRow[]> {
  const phrase = normalizeName(q);
  const words = [...new Set(phrase.split(" ").filter((w) => w.length > 0))].slice(0, 8);
  const candidates = await entitiesMatchingWords(db, filter, words, Q_SCAN);
  const scored = candidates.map((e) => ({ e, score: nameScore(e.normName || e.name.toLowerCase(), phrase, words) }));
  scored.sort((a, b) => b.score - a.score || b.e.cellCount - a.e.cellCount || a.e.name.localeCompare(b.e.name) || a.e.entityId.localeCompare(b.e.entityId));
  return scored.slice(0, limit).map((s) => s.e);
}

/** Exact name, then name prefix, then how many of the words it contains. */
function nameScore(name: string, phrase: string, words: string[]): number {
  const folded = name.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  if (folded === phrase) return 1000;
  const hits = words.filter((w) => folded.includes(w)).length;
  const wordStarts = words.filter((w) => folded.split(" ").some((t) => t.startsWith(w))).length;
  return (folded.startsWith(phrase) ? 500 : 0) + hits * 10 + wordStarts * 5 - Math.min(folded.length, 100) / 100;
}

/** `PUT …/entities/{entityId}/roles`: replaces the entity's roles (names already checked). */
export async function putEntityRoles(
  q: Queryable,
  scope: Scope,
  input: { entityId: string; roles: string[] },
): Promise<{ entityId: string; roles: string[] }> {
  const entity = await findEntity(q, [scope.projectId], input.entityId);
  if (!entity) throw new AppError("entity_not_found");
  await setEntityRoles(q, input.entityId, input.roles);
  return { entityId: input.entityId, roles: [...new Set(input.roles)].sort() };
}
