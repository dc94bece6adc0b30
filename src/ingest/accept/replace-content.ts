import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import type { Db } from "../../store/db.js";
import { AppError } from "../../errors.js";
import { chunkSize } from "../../store/files/chunks.js";
import { getFile, requeueFile } from "../../store/files/files.js";
import { bumpCorpusVersion } from "../../store/access/projects.js";
import { toFileResource } from "../../graph/file-resource.js";
import type { FileResource } from "../../graph/file-resource.js";
import { isEditable } from "./media-types.js";
import type { FileType } from "./media-types.js";
import { releaseLeftChunks } from "./storage.js";

/**
 * Moves a file to bytes already stored as a chunk and queues it for an
 * incremental re-read. The file id does not change. The chunk it left is
 * deleted in the same transaction when no other file points at it (the
 * re-read then empties the text of what changed), so replaced bytes are not
 * kept. Adds no bytes, so it is never refused for the quota.
 */
export async function replaceContent(
  db: Db,
  scope: Pick<Scope, "projectId">,
  input: { fileId: string; chunkId: string; fileSize?: number | undefined },
  tools: Pick<Tools, "clock">,
): Promise<FileResource> {
  const { projectId } = scope;
  const { fileId } = input;
  const body = input;
  const nowMs = tools.clock();
  const now = new Date(nowMs).toISOString();
  return db.transaction(async (tx) => {
    const file = await getFile(tx, projectId, fileId);
    if (!file) throw new AppError("file_not_found");
    if (!isEditable(file.fileType as FileType)) throw new AppError("file_not_editable");
    const size = await chunkSize(tx, projectId, body.chunkId);
    if (size === undefined) throw new AppError("chunk_not_stored");
    if (body.fileSize !== undefined && body.fileSize !== size) {
      throw new AppError("invalid_input", { message: `fileSize ${body.fileSize} does not match the chunk's ${size} bytes` });
    }
    await requeueFile(tx, fileId, body.chunkId, size, now);
    if (file.chunkId !== body.chunkId) await releaseLeftChunks(tx, projectId, [file.chunkId], nowMs);
    await bumpCorpusVersion(tx, projectId);
    return toFileResource((await getFile(tx, projectId, fileId))!);
  });
}
