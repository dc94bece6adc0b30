/**
 * `object_submit`: one record filed under the artifact schema the caller's
 * key is bound to, checked against it, and made findable — an entity of
 * kind `record` and one cell that retrieval ranks like any other.
 */
import { createHash } from "node:crypto";
import type { Principal } from "../access/principal.js";
import { reaches } from "../core/scope.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { normalizeName } from "../entities/normalize-name.js";
import { AppError } from "../errors.js";
import { newId, newOrderedId } from "../ids.js";
import { bumpCorpusVersion } from "../store/access/projects.js";
import { takeRateSlot } from "../store/access/rate-events.js";
import type { Db, Queryable } from "../store/db.js";
import { projectStoredBytes } from "../store/files/chunks.js";
import { insertCells } from "../store/graph/cells.js";
import { linkCellEntities, sourcedKey, upsertSourcedEntities } from "../store/graph/entities.js";
import { insertFactions } from "../store/graph/factions.js";
import { getArtifactSchema } from "../store/records/artifact-schemas.js";
import type { ArtifactSchemaRow } from "../store/records/artifact-schemas.js";
import { indexRecordCell, insertRecord, nextFactionOrdinal } from "../store/records/records.js";
import { checkRecord } from "./artifact-fields.js";
import { recordCellText, recordEntityName } from "./record-text.js";

/** What a submission carries: the field values, and the trap field a person never fills. */
export interface Submission {
  data: Record<string, unknown>;
  honeypot?: string | undefined;
}

/** Largest record, as JSON: a form's fields, not a file (files go through ingest). */
const RECORD_BYTES_MAX = 64 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The media type of a records file's rows: each faction's text is the record as one JSON line. */
const ROW_TYPE = "application/x-ndjson";

/**
 * Who may submit: a `submit` key bound to a type, a standard key bound to a
 * type whose owner is at least an editor, or the local owner (stdio, `pks
 * call`) of a folder served with `--submit-type`. A key with no binding, or
 * a viewer's standard key, gets 403 `action not available to an API key`;
 * the local owner with none is told what is missing (there is no key to
 * speak of). The type is always the caller's; a submission never names one.
 */
export function boundSchemaId(principal: Principal, scope: Pick<Scope, "level">): string {
  const typeId = principal.boundTypeId;
  if (!typeId) throw new AppError(principal.via === "local" ? "no_submit_type" : "action_not_available");
  if (principal.tier !== "submit" && !reaches(scope.level, "editor")) throw new AppError("action_not_available");
  return typeId;
}

/**
 * Stores one record in one transaction and answers its id.
 *
 * - The bound id must name an artifact schema of the project: else 404
 *   `schema not found` (a key bound to another project's schema, or to a
 *   type that is no artifact schema).
 * - A non-blank `honeypot`: the answer is the same `{recordId}`, the data is
 *   kept as sent and marked spam, nothing is derived, and the data is not
 *   checked — a bot learns nothing from the answer.
 * - Otherwise the data must match the schema ({@link checkRecord}): else 400
 *   `record does not match its schema` with `problems: [{field, why}]` beside
 *   the error, and nothing is stored.
 * - A match stores the record, a `row` faction of the schema's records file
 *   (the record as one JSON line), its cell, its entity (`record:<id>`), the
 *   cell's full-text row, and adds one to the project's corpus version.
 * - Bounds, spam included: a record over 64 KiB of JSON is 413 `the record
 *   is larger than 64 KiB`; its bytes (and what was derived from it) count
 *   against the project's storage quota (413 `quota_exceeded`); a `submit`
 *   key files at most `submitDailyMax` records a day (429). Spam expires
 *   with the storage pass (kept a week, see `SPAM_KEPT_MS`).
 */
export async function submitRecord(
  db: Db,
  ctx: { principal: Principal; scope: Pick<Scope, "projectId" | "level"> },
  input: Submission,
  tools: Pick<Tools, "clock" | "storage">,
): Promise<{ recordId: string }> {
  const schemaId = boundSchemaId(ctx.principal, ctx.scope);
  const spam = (input.honeypot ?? "").trim() !== "";
  const projectId = ctx.scope.projectId;
  const sent = JSON.stringify(input.data);
  if (Buffer.byteLength(sent) > RECORD_BYTES_MAX) throw new AppError("record_too_large");
  await tools.storage.assertRoom();
  await countDailySubmission(db, ctx.principal, tools);
  const now = new Date(tools.clock()).toISOString();
  const quotaBytes = tools.storage.quotaBytes;
  return db.transaction(async (tx) => {
    const schema = await getArtifactSchema(tx, projectId, schemaId);
    if (!schema) throw new AppError("schema_not_found");
    const recordId = newId("rec");
    if (spam) {
      const size = Buffer.byteLength(sent);
      await assertRoomFor(tx, projectId, size, quotaBytes);
      await insertRecord(tx, { recordId, projectId, schemaId, json: sent, spam: true, cellId: null, entityId: null, size }, now);
      return { recordId };
    }
    const check = checkRecord(schema.fields, input.data);
    if (!check.ok) throw new AppError("record_schema_mismatch", { extra: { problems: check.problems } });
    const json = JSON.stringify(check.data);
    const { cellId, entityId, derivedBytes } = await deriveRecord(tx, schema, recordId, check.data, now);
    const size = Buffer.byteLength(json) + derivedBytes;
    await assertRoomFor(tx, projectId, size, quotaBytes);
    await insertRecord(tx, { recordId, projectId, schemaId, json, spam: false, cellId, entityId, size }, now);
    await bumpCorpusVersion(tx, projectId);
    return { recordId };
  });
}

/**
 * A `submit` key (a public form's) files at most `submitDailyMax` records in
 * any 24 hours, spam included: past it 429 with `Retry-After`, the message
 * naming the limit. Editors' keys are held by the request rate limit only.
 */
async function countDailySubmission(db: Db, principal: Principal, tools: Pick<Tools, "clock" | "storage">): Promise<void> {
  if (principal.tier !== "submit" || !principal.keyId) return;
  const max = tools.storage.submitDailyMax;
  const decision = await takeRateSlot(db, `submit-day:${principal.keyId}`, tools.clock(), { max, windowMs: DAY_MS });
  if (decision.allowed) return;
  throw new AppError("rate_limited", {
    message: `this key's daily limit of ${max} records is reached`,
    headers: { "Retry-After": String(decision.retryAfterSeconds) },
  });
}

/** 413 `quota_exceeded` when `size` more bytes would take the project past its quota (the transaction rolls back). */
async function assertRoomFor(tx: Queryable, projectId: string, size: number, quotaBytes: number): Promise<void> {
  if ((await projectStoredBytes(tx, projectId)) + size > quotaBytes) throw new AppError("quota_exceeded");
}

/** The graph rows of one record: faction, cell, entity, link and full-text row. */
async function deriveRecord(
  tx: Queryable,
  schema: ArtifactSchemaRow,
  recordId: string,
  data: Record<string, unknown>,
  now: string,
): Promise<{ cellId: string; entityId: string; derivedBytes: number }> {
  const { projectId, fileId } = schema;
  const line = JSON.stringify(data);
  const factionId = newOrderedId("fac");
  await insertFactions(
    tx,
    [
      {
        factionId,
        projectId,
        fileId,
        contentHash: createHash("sha256").update(line).digest("hex"),
        ordinal: await nextFactionOrdinal(tx, fileId),
        factionType: "row",
        inferredType: ROW_TYPE,
        location: {},
        headingPath: "[]",
        text: line,
      },
    ],
  );
  const cellId = newOrderedId("cel");
  const text = recordCellText(schema.name, schema.fields, data);
  await insertCells(tx, [{ cellId, projectId, fileId, factionId, parentCellId: null, ordinal: 0, text }], now);
  const name = recordEntityName(schema.name, schema.fields, data, recordId);
  const sourceKey = `record:${recordId}`;
  const ids = await upsertSourcedEntities(tx, projectId, [{ kind: "record", sourceKey, name, normName: normalizeName(name) }]);
  const entityId = ids.get(sourcedKey("record", sourceKey))!;
  await linkCellEntities(tx, [{ cellId, entityId }]);
  await indexRecordCell(tx, cellId);
  return { cellId, entityId, derivedBytes: Buffer.byteLength(line) + Buffer.byteLength(text) };
}
