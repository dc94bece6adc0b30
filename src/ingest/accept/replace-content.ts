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

/**
 * Moves a file to bytes already stored as a chunk and queues it for an
 * incremental re-read. The file id does not change.
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
  const now = new Date(tools.clock()).toISOString();
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
    await bumpCorpusVersion(tx, projectId);
    return toFileResource((await getFile(tx, projectId, fileId))!);
  });
}
