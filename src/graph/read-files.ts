import type { Page } from "../core/cursor.js";
import { AppError } from "../errors.js";
import { toFileResource } from "./file-resource.js";
import type { FileResource } from "./file-resource.js";
import { findLiveFile, readFilePage } from "../store/files/files.js";
import { keysetPage } from "./read-scope.js";
import type { Query, ReadScope } from "./read-scope.js";

const STATUSES = ["queued", "reading", "ready", "failed"];

/** `GET /v1/projects/{projectId}/files`: live files, by id, under a `path` prefix and of a `status`. */
export async function readFiles(scope: ReadScope, query: Query): Promise<Page<FileResource>> {
  if (query.status && !STATUSES.includes(query.status)) {
    throw new AppError("invalid_input", { message: `status must be one of ${STATUSES.join(", ")}` });
  }
  const filter = { projectIds: scope.projectIds, pathPrefix: query.path || undefined, status: query.status || undefined };
  const page = await keysetPage(scope, "files", query, (after, n) => readFilePage(scope.deps.db, filter, after, n), (f) => f.fileId);
  return { rows: page.rows.map(toFileResource), nextCursor: page.nextCursor };
}

/** `GET /v1/projects/{projectId}/files/{fileId}`. */
export async function readFile(scope: ReadScope, fileId: string): Promise<FileResource> {
  const file = await findLiveFile(scope.deps.db, scope.projectIds, fileId);
  if (!file) throw new AppError("file_not_found");
  return toFileResource(file);
}
