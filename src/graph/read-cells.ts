import type { Page } from "../core/cursor.js";
import { AppError } from "../errors.js";
import { countCells, countFileSections, readCellPage } from "../store/graph/cell-reads.js";
import type { CellFilter } from "../store/graph/cell-reads.js";
import { findCategory, findEntity } from "../store/graph/entity-reads.js";
import { idList, keysetPage } from "./read-scope.js";
import type { Query, ReadScope } from "./read-scope.js";

/** The Cell resource (plus `factionId` and `parentCellId`). */
export interface Cell {
  cellId: string;
  entityIds: string[];
  fileIds: string[];
  projectId: string;
  factionId: string;
  parentCellId: string | null;
  text: string;
  updatedAt: string;
}

/** Files beyond which a `fileId` read's count is left off. */
const EXACT_COUNT_SECTIONS = 30;

/**
 * `GET /v1/projects/{projectId}/cells`: live cells of the project and its
 * ancestors, filtered, paged by id. A scoped read's first page carries the
 * selection's count where it can be exact.
 */
export async function readCells(scope: ReadScope, query: Query): Promise<Page<Cell>> {
  const filter: CellFilter = {
    projectIds: scope.projectIds,
    fileIds: idList(query.fileId, "fileId"),
    factionId: query.factionId || undefined,
    parentCellId: query.parentCellId || undefined,
    entityId: query.entityId || undefined,
  };
  if (filter.entityId && !(await findEntity(scope.deps.db, scope.projectIds, filter.entityId))) {
    throw new AppError("entity_not_found");
  }
  if (query.schemaId) return readFilledCells(scope, query.schemaId);
  const page = await keysetPage(scope, "cells", query, (after, n) => readCellPage(scope.deps.db, filter, after, n), (c) => c.cellId);
  const rows = page.rows.map(({ fileId, ...c }) => ({ ...c, fileIds: [fileId] }));
  const totalCount = !query.cursor && isScoped(filter) && (await exactCountAllowed(scope, filter)) ? await countCells(scope.deps.db, filter) : undefined;
  return { rows, nextCursor: page.nextCursor, totalCount };
}

function isScoped(f: CellFilter): boolean {
  return Boolean(f.fileIds?.length || f.factionId || f.parentCellId || f.entityId);
}

async function exactCountAllowed(scope: ReadScope, f: CellFilter): Promise<boolean> {
  if (f.entityId && (f.factionId || f.fileIds?.length)) return false;
  if (f.fileIds?.length) return (await countFileSections(scope.deps.db, f.fileIds)) <= EXACT_COUNT_SECTIONS;
  return true;
}

/**
 * Cells filled against a type's fields. The type must exist; filled cells
 * are produced once typed schemas are read into, so today the page is empty.
 */
async function readFilledCells(scope: ReadScope, schemaId: string): Promise<Page<Cell>> {
  if (!(await findCategory(scope.deps.db, scope.projectIds, schemaId))) throw new AppError("entity_not_found");
  return { rows: [], nextCursor: "", totalCount: 0 };
}
