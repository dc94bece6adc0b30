import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { entityLinks, toCellRow } from "./cell-reads.js";
import type { CellColumns, CellRow } from "./cell-reads.js";

/** A live cell with where it sits in its file: its position and the file's project path. */
export interface PlacedCell extends CellRow {
  /** Position among the file's cells, in reading order. */
  ordinal: number;
  path: string;
}

/** The cell's live neighbours in its file, in reading order (across faction boundaries). */
export interface CellNeighbours {
  previous: CellRow | undefined;
  next: CellRow | undefined;
}

interface Row extends CellColumns {
  ordinal: number;
}

const COLUMNS = "c.cell_id, c.project_id, c.file_id, c.faction_id, c.parent_cell_id, c.ordinal, c.text, c.updated_at";

const toCell = (r: Row, entityIds: string[]): CellRow => toCellRow(r, entityIds);

/** A live cell of one of these projects, with its file's path and its position; undefined when retired or unknown. */
export async function findPlacedCell(q: Queryable, projectIds: readonly string[], cellId: string): Promise<PlacedCell | undefined> {
  const row = await q.get<Row & { path: string }>(
    `SELECT ${COLUMNS}, fl.path FROM cells c JOIN files fl ON fl.file_id = c.file_id
     WHERE c.cell_id = ? AND c.retired_at IS NULL AND c.project_id IN (${placeholders(projectIds.length)})`,
    [cellId, ...projectIds],
  );
  if (!row) return undefined;
  const links = await entityLinks(q, [row.cell_id]);
  return { ...toCell(row, links.get(row.cell_id) ?? []), ordinal: Number(row.ordinal), path: row.path };
}

/** The live cells just before and just after a position in a file. */
export async function cellNeighbours(q: Queryable, fileId: string, ordinal: number): Promise<CellNeighbours> {
  const [previous, next] = await Promise.all([
    q.get<Row>(`SELECT ${COLUMNS} FROM cells c WHERE c.file_id = ? AND c.retired_at IS NULL AND c.ordinal < ? ORDER BY c.ordinal DESC LIMIT 1`, [fileId, ordinal]),
    q.get<Row>(`SELECT ${COLUMNS} FROM cells c WHERE c.file_id = ? AND c.retired_at IS NULL AND c.ordinal > ? ORDER BY c.ordinal LIMIT 1`, [fileId, ordinal]),
  ]);
  const links = await entityLinks(q, [previous, next].flatMap((r) => (r ? [r.cell_id] : [])));
  return {
    previous: previous && toCell(previous, links.get(previous.cell_id) ?? []),
    next: next && toCell(next, links.get(next.cell_id) ?? []),
  };
}
