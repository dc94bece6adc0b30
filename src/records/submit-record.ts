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
import { newId } from "../ids.js";
import { bumpCorpusVersion } from "../store/access/projects.js";
import type { Db, Queryable } from "../store/db.js";
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

/** The media type of a records file's rows: each faction's text is the record as one JSON line. */
const ROW_TYPE = "application/x-ndjson";

/**
 * Who may submit: a `submit` key bound to a type, or a standard key bound
 * to a type whose owner is at least an editor. Anyone else — no binding,
 * a viewer's standard key, the local owner — gets 403 `action not available
 * to an API key`. The type is always the key's; a submission never names one.
 */
export function boundSchemaId(principal: Principal, scope: Pick<Scope, "level">): string {
  const typeId = principal.boundTypeId;
  if (!typeId) throw new AppError("action_not_available");
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
 */
export async function submitRecord(
  db: Db,
  ctx: { principal: Principal; scope: Pick<Scope, "projectId" | "level"> },
  input: Submission,
  tools: Pick<Tools, "clock">,
): Promise<{ recordId: string }> {
  const schemaId = boundSchemaId(ctx.principal, ctx.scope);
  const spam = (input.honeypot ?? "").trim() !== "";
  const projectId = ctx.scope.projectId;
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    const schema = await getArtifactSchema(tx, projectId, schemaId);
    if (!schema) throw new AppError("schema_not_found");
    const recordId = newId("rec");
    if (spam) {
      await insertRecord(tx, { recordId, projectId, schemaId, data: input.data, spam: true, cellId: null, entityId: null }, now);
      return { recordId };
    }
    const check = checkRecord(schema.fields, input.data);
    if (!check.ok) throw new AppError("record_schema_mismatch", { extra: { problems: check.problems } });
    const { cellId, entityId } = await deriveRecord(tx, schema, recordId, check.data, now);
    await insertRecord(tx, { recordId, projectId, schemaId, data: check.data, spam: false, cellId, entityId }, now);
    await bumpCorpusVersion(tx, projectId);
    return { recordId };
  });
}

/** The graph rows of one record: faction, cell, entity, link and full-text row. */
async function deriveRecord(
  tx: Queryable,
  schema: ArtifactSchemaRow,
  recordId: string,
  data: Record<string, unknown>,
  now: string,
): Promise<{ cellId: string; entityId: string }> {
  const { projectId, fileId } = schema;
  const line = JSON.stringify(data);
  const factionId = newId("fac");
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
    now,
  );
  const cellId = newId("cel");
  const text = recordCellText(schema.name, schema.fields, data);
  await insertCells(tx, [{ cellId, projectId, fileId, factionId, parentCellId: null, ordinal: 0, text }], now);
  const name = recordEntityName(schema.name, schema.fields, data, recordId);
  const sourceKey = `record:${recordId}`;
  const ids = await upsertSourcedEntities(tx, projectId, [{ kind: "record", sourceKey, name, normName: normalizeName(name) }], now);
  const entityId = ids.get(sourcedKey("record", sourceKey))!;
  await linkCellEntities(tx, [{ cellId, entityId }]);
  await indexRecordCell(tx, cellId);
  return { cellId, entityId };
}
