import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";

/** A member's filled cell as stored. */
export interface FilledCellRow {
  cellId: string;
  projectId: string;
  categoryEntityId: string;
  entityId: string;
  schemaVersion: number;
  values: Record<string, unknown>;
  sources: Record<string, string[]>;
  fileIds: string[];
  material: string;
  text: string;
  updatedAt: string;
}

interface Row {
  cell_id: string;
  project_id: string;
  category_entity_id: string;
  entity_id: string;
  schema_version: number;
  field_values: string;
  sources: string;
  file_ids: string;
  material: string;
  text: string;
  updated_at: string;
}

const toFilled = (r: Row): FilledCellRow => ({
  cellId: r.cell_id,
  projectId: r.project_id,
  categoryEntityId: r.category_entity_id,
  entityId: r.entity_id,
  schemaVersion: Number(r.schema_version),
  values: JSON.parse(r.field_values) as Record<string, unknown>,
  sources: JSON.parse(r.sources) as Record<string, string[]>,
  fileIds: JSON.parse(r.file_ids) as string[],
  material: r.material,
  text: r.text,
  updatedAt: r.updated_at,
});

/** The filled cells of a type by member, to decide which to read again. */
export async function filledCellsOfCategory(q: Queryable, categoryEntityId: string): Promise<Map<string, FilledCellRow>> {
  const rows = await q.all<Row>("SELECT * FROM filled_cells WHERE category_entity_id = ?", [categoryEntityId]);
  return new Map(rows.map((r) => [r.entity_id, toFilled(r)]));
}

/** Writes a member's filled cell, keeping its id when it had one. */
export async function writeFilledCell(q: Queryable, cell: FilledCellRow): Promise<void> {
  await q.execute(
    `INSERT INTO filled_cells (cell_id, project_id, category_entity_id, entity_id, schema_version, field_values, sources, file_ids, material, text, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (category_entity_id, entity_id) DO UPDATE SET schema_version = excluded.schema_version, field_values = excluded.field_values,
       sources = excluded.sources, file_ids = excluded.file_ids, material = excluded.material, text = excluded.text, updated_at = excluded.updated_at`,
    [
      cell.cellId,
      cell.projectId,
      cell.categoryEntityId,
      cell.entityId,
      cell.schemaVersion,
      JSON.stringify(cell.values),
      JSON.stringify(cell.sources),
      JSON.stringify(cell.fileIds),
      cell.material,
      cell.text,
      cell.updatedAt,
    ],
  );
}

/** A page of a type's filled cells by cell id, optionally of one member. */
export async function readFilledCellPage(
  q: Queryable,
  projectIds: readonly string[],
  f: { categoryEntityId: string; entityId?: string | undefined },
  afterId: string | undefined,
  limit: number,
): Promise<FilledCellRow[]> {
  const args: InValue[] = [f.categoryEntityId, ...projectIds];
  let where = `category_entity_id = ? AND project_id IN (${placeholders(projectIds.length)})`;
  if (f.entityId) {
    where += " AND entity_id = ?";
    args.push(f.entityId);
  }
  if (afterId) {
    where += " AND cell_id > ?";
    args.push(afterId);
  }
  const rows = await q.all<Row>(`SELECT * FROM filled_cells WHERE ${where} ORDER BY cell_id LIMIT ?`, [...args, limit]);
  return rows.map(toFilled);
}

export async function countFilledCells(q: Queryable, projectIds: readonly string[], f: { categoryEntityId: string; entityId?: string | undefined }): Promise<number> {
  const args: InValue[] = [f.categoryEntityId, ...projectIds];
  let where = `category_entity_id = ? AND project_id IN (${placeholders(projectIds.length)})`;
  if (f.entityId) {
    where += " AND entity_id = ?";
    args.push(f.entityId);
  }
  const row = await q.get<{ n: number }>(`SELECT count(*) AS n FROM filled_cells WHERE ${where}`, args);
  return Number(row?.n ?? 0);
}
