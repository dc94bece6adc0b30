import type { Page } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { findEntity } from "../store/graph/entity-reads.js";
import { countFactions, readFactions as readFactionRows } from "../store/graph/faction-reads.js";
import type { FactionFilter, FactionRow } from "../store/graph/faction-reads.js";
import type { Faction } from "./resources.js";

export type { Faction } from "./resources.js";

/** The filters of a factions read, parsed. */
export interface FactionQuery {
  factionIds?: string[] | undefined;
  fileId?: string | undefined;
  categoryEntityId?: string | undefined;
  entityId?: string | undefined;
  factionType?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

const toFaction = (f: FactionRow): Faction => ({
  factionId: f.factionId,
  factionType: f.factionType,
  inferredType: f.inferredType,
  fileIds: f.fileIds,
  sourceLocation: f.location,
  projectId: f.projectId,
});

/**
 * `GET /v1/projects/{projectId}/factions`. `factionIds` and `fileId` reads
 * answer the whole selection at once; the others page by id, and an
 * `entityId` or `categoryEntityId` read's first page carries its count.
 */
export async function readFactions(q: Queryable, scope: Scope, query: FactionQuery, tools: Pick<Tools, "cursors">): Promise<Page<Faction>> {
  const filter = await factionFilter(q, scope, query);
  if (filter.factionIds || filter.fileId) {
    if (query.cursor) throw new AppError("invalid_cursor");
    return { rows: (await readFactionRows(q, filter)).map(toFaction), nextCursor: "" };
  }
  const page = await keysetPage(
    tools.cursors,
    { name: "factions", projectId: scope.projectId, query },
    (after, n) => readFactionRows(q, filter, after, n),
    (f) => f.factionId,
  );
  const counted = !query.cursor && (filter.entityId || filter.categoryEntityId);
  return { rows: page.rows.map(toFaction), nextCursor: page.nextCursor, totalCount: counted ? await countFactions(q, filter) : undefined };
}

async function factionFilter(q: Queryable, scope: Scope, query: FactionQuery): Promise<FactionFilter> {
  const filter: FactionFilter = {
    projectIds: scope.projectIds,
    factionIds: query.factionIds,
    fileId: query.fileId,
    entityId: query.entityId,
    categoryEntityId: query.categoryEntityId,
    factionType: query.factionType,
  };
  if (filter.entityId && !(await findEntity(q, scope.projectIds, filter.entityId))) throw new AppError("entity_not_found");
  if (filter.categoryEntityId) {
    const category = await findEntity(q, scope.projectIds, filter.categoryEntityId);
    if (!category) throw new AppError("entity_not_found");
    if (category.kind !== "category") throw new AppError("entity_not_category");
  }
  return filter;
}
