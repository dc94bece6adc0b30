import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import { AppError } from "../../errors.js";
import type { Queryable } from "../../store/db.js";
import { missingChunks, putChunk } from "../../store/files/chunks.js";
import { packUpload } from "./accept-pool.js";

/** A chunk id: `sha256:` and the 64 hex digits of the bytes' SHA-256. */
export const CHUNK_ID = /^sha256:[0-9a-f]{64}$/;

/** `POST …/chunks/missing`: which of these chunks the project does not hold yet. */
export async function findMissingChunks(q: Queryable, scope: Pick<Scope, "projectId">, chunkIds: readonly string[]): Promise<{ missing: string[] }> {
  return { missing: await missingChunks(q, scope.projectId, chunkIds) };
}

/** `PUT …/chunks/{chunkId}`: stores bytes under their own hash; a mismatched id is refused. */
export async function storeChunk(
  q: Queryable,
  scope: Pick<Scope, "projectId">,
  input: { chunkId: string; bytes: Uint8Array; quotaBytes?: number | undefined },
  tools: Pick<Tools, "clock">,
): Promise<{ chunkId: string; size: number }> {
  // Hashing and deflating 24 MiB is CPU work: off the serving thread (accept-pool.ts).
  const { chunkId, stored } = await packUpload(input.bytes);
  if (chunkId !== input.chunkId) throw new AppError("invalid_input", { message: "chunk id does not match the bytes" });
  await putChunk(q, scope.projectId, input.chunkId, input.bytes, new Date(tools.clock()).toISOString(), input.quotaBytes, stored);
  return { chunkId: input.chunkId, size: input.bytes.byteLength };
}
