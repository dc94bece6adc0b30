import type { Page } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { countCells, countFileSections, readCellPage } from "../store/graph/cell-reads.js";
import type { CellFilter } from "../store/graph/cell-reads.js";
import { findCategory, findEntity } from "../store/graph/entity-reads.js";
import type { Cell } from "./resources.js";

export type { Cell } from "./resources.js";

/** The filters of a cells read, parsed. */
export interface CellQuery {
  fileId?: string[] | undefined;
  entityId?: string | undefined;
  factionId?: string | undefined;
  schemaId?: string | undefined;
  parentCellId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** Files beyond which a `fileId` read's count is left off. */
const EXACT_COUNT_SECTIONS = 30;

/**
 * `GET /v1/projects/{projectId}/cells`: live cells of the project and its
 * ancestors, filtered, paged by id. A scoped read's first page carries the
 * selection's count where it can be exact.
 */
export async function readCells(q: Queryable, scope: Scope, query: CellQuery, tools: Pick<Tools, "cursors">): Promise<Page<Cell>> {
  const filter: CellFilter = {
    projectIds: scope.projectIds,
    fileIds: query.fileId,
    factionId: query.factionId,
    parentCellId: query.parentCellId,
    entityId: query.entityId,
  };
  if (filter.entityId && !(await findEntity(q, scope.projectIds, filter.entityId))) throw new AppError("entity_not_found");
  if (query.schemaId) return readFilledCells(q, scope, query.schemaId);
  const page = await keysetPage(
    tools.cursors,
    { name: "cells", projectId: scope.projectId, query },
    (after, n) => readCellPage(q, filter, after, n),
    (c) => c.cellId,
  );
  const rows = page.rows.map(({ fileId, ...c }) => ({ ...c, fileIds: [fileId] }));
  const counted = !query.cursor && isScoped(filter) && (await exactCountAllowed(q, filter));
  return { rows, nextCursor: page.nextCursor, totalCount: counted ? await countCells(q, filter) : undefined };
}

function isScoped(f: CellFilter): boolean {
  return Boolean(f.fileIds?.length || f.factionId || f.parentCellId || f.entityId);
}

async function exactCountAllowed(q: Queryable, f: CellFilter): Promise<boolean> {
  if (f.entityId && (f.factionId || f.fileIds?.length)) return false;
  if (f.fileIds?.length) return (await countFileSections(q, f.fileIds)) <= EXACT_COUNT_SECTIONS;
  return true;
}

/**
 * Cells filled against a type's fields. The type must exist; filled cells
 * are produced once typed schemas are read into, so today the page is empty.
 */
async function readFilledCells(q: Queryable, scope: Scope, schemaId: string): Promise<Page<Cell>> {
  if (!(await findCategory(q, scope.projectIds, schemaId))) throw new AppError("entity_not_found");
  return { rows: [], nextCursor: "", totalCount: 0 };
}
