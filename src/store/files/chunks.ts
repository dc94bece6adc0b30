import { createHash } from "node:crypto";
import type { Queryable } from "../db.js";

/** `sha256:<hex>` of some bytes: a chunk's id. */
export function chunkIdOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Stores bytes under their chunk id (a no-op when already stored). */
export async function putChunk(q: Queryable, projectId: string, chunkId: string, bytes: Uint8Array, now: string): Promise<void> {
  await q.execute(
    "INSERT INTO chunks (project_id, chunk_id, size, bytes, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    [projectId, chunkId, bytes.byteLength, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), now],
  );
}

/** The chunk's bytes, or undefined when they never landed. */
export async function getChunkBytes(q: Queryable, projectId: string, chunkId: string): Promise<Uint8Array | undefined> {
  const row = await q.get<{ bytes: ArrayBuffer }>("SELECT bytes FROM chunks WHERE project_id = ? AND chunk_id = ?", [
    projectId,
    chunkId,
  ]);
  return row ? new Uint8Array(row.bytes) : undefined;
}

/** The chunk's size, or undefined when it is not stored. */
export async function chunkSize(q: Queryable, projectId: string, chunkId: string): Promise<number | undefined> {
  const row = await q.get<{ size: number }>("SELECT size FROM chunks WHERE project_id = ? AND chunk_id = ?", [projectId, chunkId]);
  return row ? Number(row.size) : undefined;
}

/** Which of these chunk ids have no stored bytes in the project. */
export async function missingChunks(q: Queryable, projectId: string, chunkIds: readonly string[]): Promise<string[]> {
  if (chunkIds.length === 0) return [];
  const rows = await q.all<{ chunk_id: string }>(
    `SELECT chunk_id FROM chunks WHERE project_id = ? AND chunk_id IN (${chunkIds.map(() => "?").join(",")})`,
    [projectId, ...chunkIds],
  );
  const have = new Set(rows.map((r) => r.chunk_id));
  return [...new Set(chunkIds)].filter((id) => !have.has(id));
}

/** Deletes chunks no file points at any more. */
export async function deleteUnreferencedChunks(q: Queryable, projectId: string): Promise<number> {
  const r = await q.execute(
    `DELETE FROM chunks WHERE project_id = ? AND NOT EXISTS
       (SELECT 1 FROM files f WHERE f.project_id = chunks.project_id AND f.chunk_id = chunks.chunk_id)`,
    [projectId],
  );
  return r.rowsAffected;
}
