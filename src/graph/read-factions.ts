import type { Page } from "../core/cursor.js";
import { AppError } from "../errors.js";
import { FACTION_TYPES } from "../vocabulary.js";
import { findEntity } from "../store/graph/entity-reads.js";
import { countFactions, readFactions as readFactionRows } from "../store/graph/faction-reads.js";
import type { FactionFilter, FactionRow } from "../store/graph/faction-reads.js";
import { idList, keysetPage } from "./read-scope.js";
import type { Query, ReadScope } from "./read-scope.js";

/** The Faction resource (plus `projectId`). */
export interface Faction {
  factionId: string;
  factionType: string;
  inferredType: string;
  fileIds: string[];
  sourceLocation: Record<string, number>;
  projectId: string;
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
export async function readFactions(scope: ReadScope, query: Query): Promise<Page<Faction>> {
  const filter = await factionFilter(scope, query);
  const db = scope.deps.db;
  if (filter.factionIds || filter.fileId) {
    if (query.cursor) throw new AppError("invalid_cursor");
    return { rows: (await readFactionRows(db, filter)).map(toFaction), nextCursor: "" };
  }
  const page = await keysetPage(scope, "factions", query, (after, n) => readFactionRows(db, filter, after, n), (f) => f.factionId);
  const counted = !query.cursor && (filter.entityId || filter.categoryEntityId);
  return { rows: page.rows.map(toFaction), nextCursor: page.nextCursor, totalCount: counted ? await countFactions(db, filter) : undefined };
}

async function factionFilter(scope: ReadScope, query: Query): Promise<FactionFilter> {
  const filter: FactionFilter = {
    projectIds: scope.projectIds,
    factionIds: idList(query.factionIds, "factionIds", 1000),
    fileId: query.fileId || undefined,
    entityId: query.entityId || undefined,
    categoryEntityId: query.categoryEntityId || undefined,
  };
  if (query.factionType) {
    if (!(FACTION_TYPES as readonly string[]).includes(query.factionType)) {
      throw new AppError("invalid_input", { message: `factionType must be one of ${FACTION_TYPES.join(", ")}` });
    }
    filter.factionType = query.factionType;
  }
  for (const id of [filter.entityId, filter.categoryEntityId]) {
    if (id && !(await findEntity(scope.deps.db, scope.projectIds, id))) throw new AppError("entity_not_found");
  }
  return filter;
}
