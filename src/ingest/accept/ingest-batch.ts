import { z } from "zod";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import { AppError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import type { Queryable } from "../../store/db.js";
import { EMPTY_CHUNK_ID, projectStoredBytes, putIngestedChunk } from "../../store/files/chunks.js";
import { retireFileDerivations } from "../../store/graph/factions.js";
import { chunkOfPath, retireFilesByPath, upsertQueuedFile, upsertRefusedFile } from "../../store/files/files.js";
import type { FileOrigin, RefusedVersion } from "../../store/files/files.js";
import { touchLease } from "../../store/files/leases.js";
import { bumpCorpusVersion, corpusVersion } from "../../store/access/projects.js";
import { unindexFile } from "../../store/search/search-index.js";
import { acceptUpload } from "./accept-pool.js";
import type { IncomingFile, PackedFile, Refusal } from "./accept-files.js";
import { DEFAULT_PROJECT_QUOTA_BYTES, assertWithinQuota, releaseLeftChunks } from "./storage.js";

/** What an ingest call answers: accepted files (queued), refusals with reasons, the lease and the new corpus version. */
export const ingestAnswerSchema = z.object({
  accepted: z.array(z.object({ fileId: z.string(), path: z.string(), status: z.literal("queued") })),
  refused: z.array(z.object({ path: z.string(), reason: z.string() })),
  leaseId: z.string(),
  projectId: z.string(),
  version: z.number().int(),
});
export type IngestAnswer = z.infer<typeof ingestAnswerSchema>;

/**
 * Takes a batch in: checks each file, then in one transaction stores the
 * accepted bytes, queues their file rows (same path, same file id), lists
 * the files refused for their content as failed with the reason, releases
 * the chunks re-ingested paths left, touches the project's lease and adds
 * one to the corpus version. A batch that would take the project's stored
 * bytes over `quotaBytes` is refused whole (413 `quota_exceeded`) and
 * nothing of it is stored. When this returns, everything accepted is
 * committed; reading happens later, detached. The checks, hashes and
 * packing (deflate) run before the transaction opens, off the serving
 * thread for a large call (accept-pool.ts), so the transaction only writes.
 */
export async function ingestBatch(
  db: Db,
  scope: Pick<Scope, "projectId">,
  input: { files: readonly IncomingFile[]; intent?: string | undefined; origin?: FileOrigin; quotaBytes?: number | undefined },
  tools: Pick<Tools, "clock">,
): Promise<IngestAnswer> {
  const { files, intent, origin } = input;
  const { projectId } = scope;
  if (files.length === 0) throw new AppError("no_files");
  const { accepted, refused, refusedFiles } = await acceptUpload(files);
  const nowMs = tools.clock();
  const now = new Date(nowMs).toISOString();
  return db.transaction(async (tx) => {
    const before = await projectStoredBytes(tx, projectId);
    const lease = await touchLease(tx, projectId, intent, now);
    const answer: IngestAnswer["accepted"] = [];
    const left: string[] = [];
    for (const f of accepted) {
      const { fileId, previousChunkId } = await queueVersion(tx, projectId, f, origin ?? "api", now);
      if (previousChunkId) left.push(previousChunkId);
      answer.push({ fileId, path: f.path, status: "queued" });
    }
    let listed = 0;
    for (const f of refusedFiles) {
      const { changed, previousChunkId } = await listRefused(tx, { ...f, projectId, origin: origin ?? "api" }, now);
      if (previousChunkId) left.push(previousChunkId);
      if (changed) listed++;
    }
    await releaseLeftChunks(tx, projectId, left, nowMs);
    await assertWithinQuota(tx, projectId, before, input.quotaBytes ?? DEFAULT_PROJECT_QUOTA_BYTES);
    const version = answer.length + listed > 0 ? await bumpCorpusVersion(tx, projectId) : await corpusVersion(tx, projectId);
    return { accepted: answer, refused, leaseId: lease.leaseId, projectId, version };
  });
}

/** Stores one accepted file's bytes and queues its row; says which chunk the path held before, if another. */
async function queueVersion(
  tx: Queryable,
  projectId: string,
  f: PackedFile,
  origin: FileOrigin,
  now: string,
): Promise<{ fileId: string; previousChunkId: string | undefined }> {
  const { chunkId, includeSecret } = f;
  const previous = await chunkOfPath(tx, projectId, f.path);
  await putIngestedChunk(tx, projectId, chunkId, f.bytes, now, f.stored);
  const row = await upsertQueuedFile(
    tx,
    { projectId, path: f.path, contentType: f.contentType, fileType: f.fileType, fileSize: f.bytes.byteLength, chunkId, origin, includeSecret },
    now,
  );
  return { fileId: row.fileId, previousChunkId: previous !== undefined && previous !== chunkId ? previous : undefined };
}

/**
 * Lists a file refused for its content as failed with the reason (no bytes
 * stored). A version the path held before gives way as a retired file's
 * would: its reading retired and unindexed, its chunk to release. Answers
 * whether the project's files changed (a refusal listed again, as a folder
 * sync sends an unchanged refused file each time, changes nothing).
 */
async function listRefused(tx: Queryable, f: RefusedVersion, now: string): Promise<{ changed: boolean; previousChunkId?: string }> {
  const { fileId, previous } = await upsertRefusedFile(tx, f, now);
  if (!previous) return { changed: true };
  if (previous.status === "failed" && previous.error === f.reason && previous.chunkId === EMPTY_CHUNK_ID) return { changed: false };
  if (previous.status !== "retired") {
    await retireFileDerivations(tx, fileId, now);
    await unindexFile(tx, fileId);
  }
  return previous.chunkId !== EMPTY_CHUNK_ID ? { changed: true, previousChunkId: previous.chunkId } : { changed: true };
}

/**
 * Retires files that left the project (folder sync): their readings go with
 * them (text emptied, search rows removed) and so do their bytes, when no
 * other file shares them.
 */
export async function retirePaths(
  db: Db,
  scope: Pick<Scope, "projectId">,
  paths: readonly string[],
  tools: Pick<Tools, "clock">,
): Promise<number> {
  const { projectId } = scope;
  if (paths.length === 0) return 0;
  const nowMs = tools.clock();
  const now = new Date(nowMs).toISOString();
  return db.transaction(async (tx) => {
    const retired = await retireFilesByPath(tx, projectId, paths, now);
    for (const { fileId } of retired) {
      await retireFileDerivations(tx, fileId, now);
      await unindexFile(tx, fileId);
    }
    await releaseLeftChunks(tx, projectId, retired.map((r) => r.chunkId), nowMs);
    if (retired.length > 0) await bumpCorpusVersion(tx, projectId);
    return retired.length;
  });
}
