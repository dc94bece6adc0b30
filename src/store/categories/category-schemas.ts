import type { Queryable } from "../db.js";

/** A field as stored (JSON); validated before it is written. */
export interface StoredField {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

/** A type's schema: version 0 and no fields until the first edit or confirmation. */
export interface StoredSchema {
  fields: StoredField[];
  version: number;
}

/** The schema of a type entity (version 0, no fields, when it has none). */
export async function readSchema(q: Queryable, entityId: string): Promise<StoredSchema> {
  const row = await q.get<{ fields: string; version: number }>("SELECT fields, version FROM category_schemas WHERE entity_id = ?", [entityId]);
  return row ? { fields: JSON.parse(row.fields) as StoredField[], version: Number(row.version) } : { fields: [], version: 0 };
}

/**
 * Replaces a type's fields if its version is still `fromVersion`, adding 1.
 * Answers the new version, or undefined when the schema moved meanwhile:
 * the conditional write is what makes two edits from one version race
 * safely (the second finds the version changed and writes nothing).
 */
export async function replaceSchema(
  q: Queryable,
  projectId: string,
  entityId: string,
  fromVersion: number,
  fields: readonly StoredField[],
  now: string,
): Promise<number | undefined> {
  const json = JSON.stringify(fields);
  const r =
    fromVersion === 0
      ? await q.execute(
          "INSERT INTO category_schemas (entity_id, project_id, version, fields, updated_at) VALUES (?, ?, 1, ?, ?) ON CONFLICT (entity_id) DO NOTHING",
          [entityId, projectId, json, now],
        )
      : await q.execute("UPDATE category_schemas SET version = version + 1, fields = ?, updated_at = ? WHERE entity_id = ? AND version = ?", [
          json,
          now,
          entityId,
          fromVersion,
        ]);
  return r.rowsAffected > 0 ? fromVersion + 1 : undefined;
}

/** A change ingestion proposes on a confirmed type. */
export interface StoredSchemaProposal {
  baseVersion: number;
  fields: StoredField[];
  evidence: string[];
  createdAt: string;
}

export async function readSchemaProposal(q: Queryable, entityId: string): Promise<StoredSchemaProposal | undefined> {
  const row = await q.get<{ base_version: number; fields: string; evidence: string; created_at: string }>(
    "SELECT base_version, fields, evidence, created_at FROM schema_proposals WHERE entity_id = ?",
    [entityId],
  );
  return row && { baseVersion: Number(row.base_version), fields: JSON.parse(row.fields), evidence: JSON.parse(row.evidence), createdAt: row.created_at };
}

/** Sets the pending change of a type (one at most: a newer reading replaces it). */
export async function writeSchemaProposal(
  q: Queryable,
  projectId: string,
  entityId: string,
  proposal: { baseVersion: number; fields: readonly StoredField[]; evidence: readonly string[] },
  now: string,
): Promise<void> {
  await q.execute(
    `INSERT INTO schema_proposals (entity_id, project_id, base_version, fields, evidence, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (entity_id) DO UPDATE SET base_version = excluded.base_version, fields = excluded.fields, evidence = excluded.evidence`,
    [entityId, projectId, proposal.baseVersion, JSON.stringify(proposal.fields), JSON.stringify(proposal.evidence), now],
  );
}

/** Drops a type's pending change; answers whether there was one. */
export async function dropSchemaProposal(q: Queryable, entityId: string): Promise<boolean> {
  return (await q.execute("DELETE FROM schema_proposals WHERE entity_id = ?", [entityId])).rowsAffected > 0;
}

/** The fingerprints of the fields people rejected for a type. */
export async function rejectedFields(q: Queryable, entityId: string): Promise<Set<string>> {
  const rows = await q.all<{ fingerprint: string }>("SELECT fingerprint FROM schema_rejections WHERE entity_id = ?", [entityId]);
  return new Set(rows.map((r) => r.fingerprint));
}

/** Keeps the fingerprints of rejected fields (a field rejected twice is kept once). */
export async function rememberRejectedFields(q: Queryable, projectId: string, entityId: string, fingerprints: readonly string[], now: string): Promise<void> {
  for (const fingerprint of new Set(fingerprints)) {
    await q.execute("INSERT INTO schema_rejections (entity_id, project_id, fingerprint, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", [
      entityId,
      projectId,
      fingerprint,
      now,
    ]);
  }
}
