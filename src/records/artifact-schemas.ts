/**
 * Artifact schemas: the named shapes records are submitted against, one
 * set per project. Saving under a name the project already has (ignoring
 * case) replaces that schema's fields and keeps its id, its spelling and
 * its records.
 */
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import { newId } from "../ids.js";
import type { Db } from "../store/db.js";
import {
  findArtifactSchemaByName,
  insertArtifactSchema,
  listArtifactSchemas,
  updateArtifactSchemaFields,
} from "../store/records/artifact-schemas.js";
import type { ArtifactSchemaRow } from "../store/records/artifact-schemas.js";
import { validateArtifactFields } from "./artifact-fields.js";
import type { ArtifactSchemaResource } from "./resources.js";

/** Longest schema name, in characters. */
export const SCHEMA_NAME_MAX = 128;

/** Control characters and path separators: a name is also its records file's name. */
const NAME_REFUSED = /[\p{Cc}/\\]/u;

/**
 * The trimmed schema name, or the 400 naming what is wrong with it: a name
 * is 1–128 characters, with no control characters and no slashes.
 */
export function checkSchemaName(raw: unknown): string {
  const name = typeof raw === "string" ? raw.trim() : "";
  if (name === "") throw new AppError("invalid_input", { message: "invalid input: name: a schema needs a name" });
  if (Array.from(name).length > SCHEMA_NAME_MAX) {
    throw new AppError("invalid_input", { message: `invalid input: name: longer than ${SCHEMA_NAME_MAX} characters` });
  }
  if (NAME_REFUSED.test(name)) {
    throw new AppError("invalid_input", { message: "invalid input: name: must not hold control characters or slashes" });
  }
  return name;
}

/** Where a schema's records live in the file list: a path ingest calls and folder sync never reach. */
export function recordsPath(name: string): string {
  return `.pks/records/${name}.jsonl`;
}

/**
 * Creates the schema `name` or replaces its fields. Name and fields are
 * checked before anything is read or written (fields: at least one, at
 * most 200, each under the shared field rules).
 */
export async function saveArtifactSchema(
  db: Db,
  scope: Pick<Scope, "projectId">,
  input: { name?: unknown; fields?: unknown },
  tools: Pick<Tools, "clock">,
): Promise<{ name: string; schemaId: string }> {
  const name = checkSchemaName(input.name);
  if (Array.isArray(input.fields) && input.fields.length === 0) {
    throw new AppError("invalid_input", { message: "invalid input: fields: a schema needs at least one field" });
  }
  const fields = validateArtifactFields(input.fields);
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    const existing = await findArtifactSchemaByName(tx, scope.projectId, name);
    if (existing) {
      await updateArtifactSchemaFields(tx, existing.schemaId, fields, now);
      return { name: existing.name, schemaId: existing.schemaId };
    }
    const schemaId = newId("sch");
    await insertArtifactSchema(tx, { schemaId, fileId: newId("fil"), projectId: scope.projectId, name, fields, path: recordsPath(name) }, now);
    return { name, schemaId };
  });
}

/** The project's artifact schemas, by name. */
export async function listSchemas(db: Db, scope: Pick<Scope, "projectId">): Promise<{ schemas: ArtifactSchemaResource[] }> {
  const rows = await listArtifactSchemas(db, scope.projectId);
  return { schemas: rows.map(toSchemaResource) };
}

/** The wire shape of a stored schema. */
export function toSchemaResource(row: ArtifactSchemaRow): ArtifactSchemaResource {
  return { schemaId: row.schemaId, name: row.name, fields: row.fields, updatedAt: row.updatedAt };
}
