import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import type { FileResource } from "../../graph/file-resource.js";
import { runWrite } from "./batch-writes.js";

/**
 * Moves a file to bytes already stored as a chunk and queues it for an
 * incremental re-read. The file id does not change. The chunk it left is
 * deleted in the same transaction when no other file points at it (the
 * re-read then empties the text of what changed), so replaced bytes are not
 * kept; the deletion overwrites them (`secure_delete`), so the transaction
 * runs where `tools.writes` runs long writes (batch-writes.ts). Adds no
 * bytes, so it is never refused for the quota.
 */
export function replaceContent(
  scope: Pick<Scope, "projectId">,
  input: { fileId: string; chunkId: string; fileSize?: number | undefined },
  tools: Pick<Tools, "clock" | "writes">,
): Promise<FileResource> {
  const { fileId, chunkId, fileSize } = input;
  return runWrite(tools.writes, "files.replace", { projectId: scope.projectId, fileId, chunkId, fileSize, nowMs: tools.clock() });
}
