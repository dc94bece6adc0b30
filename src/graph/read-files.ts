import type { Page } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { findLiveFile, readFilePage } from "../store/files/files.js";
import { toFileResource } from "./file-resource.js";
import type { FileResource } from "./resources.js";

/** File states a files read may filter on. */
export const FILE_STATUSES = ["queued", "reading", "ready", "failed"] as const;

/** The filters of a files read, parsed. */
export interface FileQuery {
  path?: string | undefined;
  status?: (typeof FILE_STATUSES)[number] | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** `GET /v1/projects/{projectId}/files`: live files, by id, under a `path` prefix and of a `status`. */
export async function readFiles(q: Queryable, scope: Scope, query: FileQuery, tools: Pick<Tools, "cursors">): Promise<Page<FileResource>> {
  const filter = { projectIds: scope.projectIds, pathPrefix: query.path, status: query.status };
  const page = await keysetPage(
    tools.cursors,
    { name: "files", projectId: scope.projectId, query },
    (after, n) => readFilePage(q, filter, after, n),
    (f) => f.fileId,
  );
  return { rows: page.rows.map(toFileResource), nextCursor: page.nextCursor };
}

/** `GET /v1/projects/{projectId}/files/{fileId}`. */
export async function readFile(q: Queryable, scope: Scope, fileId: string): Promise<FileResource> {
  const file = await findLiveFile(q, scope.projectIds, fileId);
  if (!file) throw new AppError("file_not_found");
  return toFileResource(file);
}
