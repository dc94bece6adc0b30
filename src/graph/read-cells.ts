import type { Page } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { countCells, countFileSections, readCellPage } from "../store/graph/cell-reads.js";
import type { CellFilter } from "../store/graph/cell-reads.js";
import { findEntity } from "../store/graph/entity-reads.js";
import { cellNeighbours, findPlacedCell } from "../store/graph/cell-context.js";
import type { CellRow } from "../store/graph/cell-reads.js";
import { countFilledCells, readFilledCellPage } from "../store/categories/filled-cells.js";
import { readFactions } from "./read-factions.js";
import type { Cell, CellContext } from "./resources.js";
import type { FilledCell } from "../categories/resources.js";

export type { Cell, CellContext } from "./resources.js";

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

const toCell = (c: CellRow): Cell => ({
  cellId: c.cellId,
  entityIds: c.entityIds,
  fileIds: [c.fileId],
  projectId: c.projectId,
  factionId: c.factionId,
  parentCellId: c.parentCellId,
  text: c.text,
  updatedAt: c.updatedAt,
});

/** Files beyond which a `fileId` read's count is left off. */
const EXACT_COUNT_SECTIONS = 30;

/**
 * `GET /v1/projects/{projectId}/cells`: live cells of the project and its
 * ancestors, filtered, paged by id. A scoped read's first page carries the
 * selection's count where it can be exact.
 */
export async function readCells(q: Queryable, scope: Scope, query: CellQuery, tools: Pick<Tools, "cursors">): Promise<Page<Cell | FilledCell>> {
  const filter: CellFilter = {
    projectIds: scope.projectIds,
    fileIds: query.fileId,
    factionId: query.factionId,
    parentCellId: query.parentCellId,
    entityId: query.entityId,
  };
  if (filter.entityId && !(await findEntity(q, scope.projectIds, filter.entityId))) throw new AppError("entity_not_found");
  if (query.schemaId) return readFilledCells(q, scope, query, tools);
  const page = await keysetPage(
    tools.cursors,
    { name: "cells", projectId: scope.projectId, query },
    (after, n) => readCellPage(q, filter, after, n),
    (c) => c.cellId,
  );
  const rows = page.rows.map(toCell);
  const counted = !query.cursor && isScoped(filter) && (await exactCountAllowed(q, filter));
  return { rows, nextCursor: page.nextCursor, totalCount: counted ? await countCells(q, filter) : undefined };
}

/**
 * `GET /v1/projects/{projectId}/cells/{cellId}`: one live cell of the
 * project or its ancestors, with what a caller needs to cite and read
 * around it: its faction (the span, with its source location), its file's
 * project path, and its neighbours in the file's reading order. 404 `cell
 * not found` for a retired, unknown or unreachable id.
 */
export async function readCell(q: Queryable, scope: Scope, cellId: string, tools: Pick<Tools, "cursors">): Promise<CellContext> {
  const placed = await findPlacedCell(q, scope.projectIds, cellId);
  if (!placed) throw new AppError("cell_not_found");
  const [factions, neighbours] = await Promise.all([
    readFactions(q, scope, { factionIds: [placed.factionId], limit: 1 }, tools),
    cellNeighbours(q, placed.fileId, placed.ordinal),
  ]);
  const faction = factions.rows[0];
  if (!faction) throw new AppError("cell_not_found");
  return {
    cell: toCell(placed),
    faction,
    filepath: placed.path,
    neighbours: {
      previous: neighbours.previous ? toCell(neighbours.previous) : null,
      next: neighbours.next ? toCell(neighbours.next) : null,
    },
  };
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
 * Cells filled against a type's fields (`schemaId` names the type entity, by
 * id), one per member; with `entityId`, that member's. 400 when the id names
 * an entity that is not a type.
 */
async function readFilledCells(q: Queryable, scope: Scope, query: CellQuery, tools: Pick<Tools, "cursors">): Promise<Page<FilledCell>> {
  const category = await findEntity(q, scope.projectIds, query.schemaId!);
  if (!category) throw new AppError("entity_not_found");
  if (category.kind !== "category") throw new AppError("entity_not_category");
  const f = { categoryEntityId: category.entityId, entityId: query.entityId };
  const page = await keysetPage(
    tools.cursors,
    { name: "cells", projectId: scope.projectId, query },
    (after, n) => readFilledCellPage(q, scope.projectIds, f, after, n),
    (c) => c.cellId,
  );
  const rows = page.rows.map(
    (c): FilledCell => ({
      ...c.values,
      cellId: c.cellId,
      entityIds: [c.entityId],
      fileIds: c.fileIds,
      projectId: c.projectId,
      text: c.text,
      updatedAt: c.updatedAt,
      schemaVersion: c.schemaVersion,
      _sources: c.sources,
    }),
  );
  return { rows, nextCursor: page.nextCursor, totalCount: query.cursor ? undefined : await countFilledCells(q, scope.projectIds, f) };
}
