/**
 * A type's schema, edited by people with optimistic concurrency: an edit
 * names the version it started from and replaces the fields whole; a stale
 * one answers 409 with the schema to restart from. Ingestion only proposes
 * changes (one pending per type), which a person approves or rejects.
 */
import type { Db, Queryable } from "../store/db.js";
import { AppError, schemaMovedError } from "../errors.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { dropSchemaProposal, readSchema, readSchemaProposal, rememberRejectedFields, replaceSchema } from "../store/categories/category-schemas.js";
import { findEntity } from "../store/graph/entity-reads.js";
import type { CategorySchema } from "./resources.js";
import { addedFields, fieldFingerprint } from "./schema-change.js";
import { validateFields } from "./schema/validate-fields.js";

/** The type entity `entityId`: 404 when there is no such entity, 400 when it is not a type. */
async function requireCategory(q: Queryable, scope: Scope, entityId: string): Promise<void> {
  const entity = await findEntity(q, [scope.projectId], entityId);
  if (!entity) throw new AppError("entity_not_found");
  if (entity.kind !== "category") throw new AppError("entity_not_category");
}

const asSchema = (s: { fields: unknown[]; version: number }): CategorySchema => ({ fields: s.fields as CategorySchema["fields"], version: s.version });

/** A type's schema as it stands. */
export async function readCategorySchema(db: Db, scope: Scope, entityId: string): Promise<{ categorySchema: CategorySchema }> {
  await requireCategory(db, scope, entityId);
  return { categorySchema: asSchema(await readSchema(db, entityId)) };
}

/** `PUT …/entities/{entityId}/schema`: replaces the fields if `version` is current. */
export async function editSchema(
  db: Db,
  scope: Scope,
  input: { entityId: string; fields: unknown; version: number },
  tools: Pick<Tools, "clock">,
): Promise<{ categorySchema: CategorySchema }> {
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    await requireCategory(tx, scope, input.entityId);
    const fields = validateFields(input.fields);
    const current = await readSchema(tx, input.entityId);
    const version = current.version === input.version ? await replaceSchema(tx, scope.projectId, input.entityId, input.version, fields, now) : undefined;
    if (version === undefined) {
      const latest = await readSchema(tx, input.entityId);
      throw schemaMovedError(latest.version, asSchema(latest));
    }
    return { categorySchema: { fields, version } };
  });
}

/**
 * `POST …/schema/approve`: the pending change becomes the schema, one
 * version up. Fields a person added since the change was proposed stay:
 * the proposal's fields are merged into the schema as it stands.
 */
export async function approveSchemaProposal(db: Db, scope: Scope, entityId: string, tools: Pick<Tools, "clock">): Promise<{ categorySchema: CategorySchema }> {
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    await requireCategory(tx, scope, entityId);
    const pending = await readSchemaProposal(tx, entityId);
    if (!pending) throw new AppError("no_pending_schema_proposal");
    const current = await readSchema(tx, entityId);
    const added = addedFields(current.fields, pending.fields);
    if (added.length === 0) throw new AppError("schema_change_empty");
    const fields = [...current.fields, ...added];
    const version = await replaceSchema(tx, scope.projectId, entityId, current.version, fields, now);
    if (version === undefined) throw new Error("the schema moved inside its own transaction");
    await dropSchemaProposal(tx, entityId);
    return { categorySchema: asSchema({ fields, version }) };
  });
}

/**
 * `POST …/schema/reject`: drops the pending change and remembers the fields
 * it would have added, so no later reading proposes them again.
 */
export async function rejectSchemaProposal(db: Db, scope: Scope, entityId: string, tools: Pick<Tools, "clock">): Promise<Record<string, never>> {
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    await requireCategory(tx, scope, entityId);
    const pending = await readSchemaProposal(tx, entityId);
    if (!pending) throw new AppError("no_pending_schema_proposal");
    const added = addedFields((await readSchema(tx, entityId)).fields, pending.fields);
    await rememberRejectedFields(tx, scope.projectId, entityId, added.map(fieldFingerprint), now);
    await dropSchemaProposal(tx, entityId);
    return {};
  });
}

/**
 * A type's schema as it stands and the change reading proposed for it, if
 * one waits (`null` otherwise): what a person compares before approving.
 */
export async function readSchemaWithPending(
  db: Db,
  scope: Scope,
  entityId: string,
): Promise<{ categorySchema: CategorySchema; pending: { fields: CategorySchema["fields"]; baseVersion: number; evidence: string[] } | null }> {
  await requireCategory(db, scope, entityId);
  const pending = await readSchemaProposal(db, entityId);
  return {
    categorySchema: asSchema(await readSchema(db, entityId)),
    pending: pending ? { fields: pending.fields as CategorySchema["fields"], baseVersion: pending.baseVersion, evidence: pending.evidence } : null,
  };
}
