import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import { AppError } from "../../errors.js";
import type { Queryable } from "../../store/db.js";
import { DEFAULT_PROJECT_QUOTA_BYTES, missingChunks } from "../../store/files/chunks.js";
import { packUpload } from "./accept-pool.js";
import { runWrite } from "./batch-writes.js";

/** A chunk id: `sha256:` and the 64 hex digits of the bytes' SHA-256. */
export const CHUNK_ID = /^sha256:[0-9a-f]{64}$/;

/** `POST …/chunks/missing`: which of these chunks the project does not hold yet. */
export async function findMissingChunks(q: Queryable, scope: Pick<Scope, "projectId">, chunkIds: readonly string[]): Promise<{ missing: string[] }> {
  return { missing: await missingChunks(q, scope.projectId, chunkIds) };
}

/**
 * `PUT …/chunks/{chunkId}`: stores bytes under their own hash; a mismatched
 * id is refused. Hashing and deflating 24 MiB is CPU work, done off the
 * serving thread (accept-pool.ts); the insert and its commit run where
 * `tools.writes` runs them (the writer thread's connection on a local file).
 */
export async function storeChunk(
  scope: Pick<Scope, "projectId">,
  input: { chunkId: string; bytes: Uint8Array; quotaBytes?: number | undefined },
  tools: Pick<Tools, "clock" | "writes">,
): Promise<{ chunkId: string; size: number }> {
  const { chunkId, stored, movable } = await packUpload(input.bytes);
  if (chunkId !== input.chunkId) throw new AppError("invalid_input", { message: "chunk id does not match the bytes" });
  const quotaBytes = input.quotaBytes ?? DEFAULT_PROJECT_QUOTA_BYTES;
  const chunk = { projectId: scope.projectId, chunkId, bytes: input.bytes, stored, quotaBytes, nowMs: tools.clock() };
  await runWrite(tools.writes, "chunks.put", chunk, movable);
  return { chunkId, size: input.bytes.byteLength };
}
