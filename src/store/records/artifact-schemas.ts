import type { ArtifactSchemaField } from "../../vocabulary.js";
import type { Queryable } from "../db.js";
import { EMPTY_CHUNK_ID, ensureEmptyChunk } from "../files/chunks.js";

/** An artifact schema as stored. */
export interface ArtifactSchemaRow {
  schemaId: string;
  projectId: string;
  name: string;
  fields: ArtifactSchemaField[];
  /** The schema's records file: every record's faction and cell hang under it. */
  fileId: string;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  schema_id: string;
  project_id: string;
  name: string;
  fields: string;
  file_id: string;
  created_at: string;
  updated_at: string;
}

const toSchema = (r: Row): ArtifactSchemaRow => ({
  schemaId: r.schema_id,
  projectId: r.project_id,
  name: r.name,
  fields: JSON.parse(r.fields) as ArtifactSchemaField[],
  fileId: r.file_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The key a schema name is matched by: names are unique per project ignoring case. */
export function schemaNameKey(name: string): string {
  return name.toLowerCase();
}

/** A schema of this project by id. */
export async function getArtifactSchema(q: Queryable, projectId: string, schemaId: string): Promise<ArtifactSchemaRow | undefined> {
  const row = await q.get<Row>("SELECT * FROM artifact_schemas WHERE project_id = ? AND schema_id = ?", [projectId, schemaId]);
  return row && toSchema(row);
}

/** A schema of this project by name, ignoring case. */
export async function findArtifactSchemaByName(q: Queryable, projectId: string, name: string): Promise<ArtifactSchemaRow | undefined> {
  const row = await q.get<Row>("SELECT * FROM artifact_schemas WHERE project_id = ? AND name_key = ?", [projectId, schemaNameKey(name)]);
  return row && toSchema(row);
}

/** Every schema of the project, by name. */
export async function listArtifactSchemas(q: Queryable, projectId: string): Promise<ArtifactSchemaRow[]> {
  const rows = await q.all<Row>("SELECT * FROM artifact_schemas WHERE project_id = ? ORDER BY name_key, schema_id", [projectId]);
  return rows.map(toSchema);
}

/**
 * Stores a new schema with its records file: a `ready` file at `path` that
 * points at the empty chunk (files need a chunk; this one holds no bytes and
 * is never read — the migration's trigger refuses any change of its bytes or
 * status).
 */
export async function insertArtifactSchema(
  q: Queryable,
  s: { schemaId: string; fileId: string; projectId: string; name: string; fields: readonly ArtifactSchemaField[]; path: string },
  now: string,
): Promise<void> {
  await ensureEmptyChunk(q, s.projectId, now);
  await q.execute(
    `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, read_chunk_id, origin,
       created_at, updated_at)
     VALUES (?, ?, ?, 'application/x-ndjson', 'data', 0, ?, 'ready', ?, 'api', ?, ?)`,
    [s.fileId, s.projectId, s.path, EMPTY_CHUNK_ID, EMPTY_CHUNK_ID, now, now],
  );
  await q.execute(
    `INSERT INTO artifact_schemas (schema_id, project_id, name, name_key, fields, file_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [s.schemaId, s.projectId, s.name, schemaNameKey(s.name), JSON.stringify(s.fields), s.fileId, now, now],
  );
}

/** Replaces a schema's fields; its id, name and records stay. */
export async function updateArtifactSchemaFields(q: Queryable, schemaId: string, fields: readonly ArtifactSchemaField[], now: string): Promise<void> {
  await q.execute("UPDATE artifact_schemas SET fields = ?, updated_at = ? WHERE schema_id = ?", [JSON.stringify(fields), now, schemaId]);
}
