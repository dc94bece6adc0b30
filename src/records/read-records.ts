import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { keysetPage } from "../core/paging.js";
import type { Page, PagedQuery } from "../core/paging.js";
import { AppError } from "../errors.js";
import type { Db } from "../store/db.js";
import { getArtifactSchema } from "../store/records/artifact-schemas.js";
import { countRecords, readRecordPage } from "../store/records/records.js";
import type { RecordResource } from "./resources.js";

/** The records read's query: an optional schema, and paging. */
export interface RecordsQuery extends PagedQuery {
  schemaId?: string | undefined;
}

/**
 * Pages the project's records by id (keyset: rows submitted while a client
 * pages cause no duplicates and skip nothing), optionally of one schema; a
 * record marked spam is never listed. The first page carries the exact
 * count. A `schemaId` that names no schema of the project is 404
 * `schema not found`.
 */
export async function readRecords(
  db: Db,
  scope: Pick<Scope, "projectId">,
  query: RecordsQuery,
  tools: Pick<Tools, "cursors">,
): Promise<Page<RecordResource>> {
  if (query.schemaId && !(await getArtifactSchema(db, scope.projectId, query.schemaId))) throw new AppError("schema_not_found");
  const filter = { projectId: scope.projectId, schemaId: query.schemaId };
  const page: Page<RecordResource> = await keysetPage(
    tools.cursors,
    { name: "records.list", projectId: scope.projectId, query },
    (afterId, n) => readRecordPage(db, filter, afterId, n),
    (r) => r.recordId,
  );
  if (!query.cursor) page.totalCount = await countRecords(db, filter);
  return page;
}
