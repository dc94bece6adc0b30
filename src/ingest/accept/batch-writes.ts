/**
 * The write transactions of uploads and folder syncs, as jobs a `WriteQueue`
 * runs: storing an accepted batch, retiring paths, storing an uploaded
 * chunk, moving a file to an uploaded chunk. Each writes or releases bytes
 * (up to tens of megabytes; a released chunk is overwritten with zeros,
 * `secure_delete`) and its commit waits for the disk, so on a local file they run on the writer thread's
 * connection (writer-thread.ts), where a slow commit holds no request: on
 * the serving thread they held a cheap read for up to half a second under
 * load. Elsewhere (`inPlaceWrites`) they run on the caller's connection.
 * Everything a job needs comes in its input, the clock's reading included,
 * so it runs the same on either thread; the CPU work before it (checks,
 * hashes, deflate) is done by then (accept-pool.ts).
 */
import type { WriteQueue, WriteRequest } from "../../core/tools.js";
import { AppError } from "../../errors.js";
import type { Db, Queryable } from "../../store/db.js";
import { EMPTY_CHUNK_ID, chunkSize, projectStoredBytes, putChunk, putIngestedChunk } from "../../store/files/chunks.js";
import type { StoredChunk } from "../../store/files/chunks.js";
import { chunkOfPath, getFile, requeueFile, retireFilesByPath, upsertQueuedFile, upsertRefusedFile } from "../../store/files/files.js";
import type { FileOrigin, RefusedVersion } from "../../store/files/files.js";
import { touchLease } from "../../store/files/leases.js";
import { retireFileDerivations } from "../../store/graph/factions.js";
import { bumpCorpusVersion, corpusVersion } from "../../store/access/projects.js";
import { writeRateBatch } from "../../store/access/rate-events.js";
import { unindexFile } from "../../store/search/search-index.js";
import { toFileResource } from "../../graph/file-resource.js";
import type { FileResource } from "../../graph/file-resource.js";
import type { PackedFile, RefusedFile } from "./accept-files.js";
import { isEditable } from "./media-types.js";
import type { FileType } from "./media-types.js";
import { assertWithinQuota, collectChunks, releaseLeftChunks } from "./storage.js";

/** An accepted batch to store: what the checks let in and what they refused for its content. */
export interface BatchToStore {
  projectId: string;
  accepted: readonly PackedFile[];
  refusedFiles: readonly RefusedFile[];
  intent: string | undefined;
  origin: FileOrigin;
  quotaBytes: number;
  nowMs: number;
}

/** What storing a batch committed: the files queued, the lease touched, the corpus version after. */
export interface StoredBatch {
  accepted: Array<{ fileId: string; path: string; status: "queued" }>;
  leaseId: string;
  version: number;
}

/** Paths that left a project's folder. */
export interface PathsToRetire {
  projectId: string;
  paths: readonly string[];
  nowMs: number;
}

/** An uploaded chunk, its id checked against its bytes. */
export interface ChunkToStore {
  projectId: string;
  chunkId: string;
  bytes: Uint8Array;
  stored: StoredChunk;
  quotaBytes: number;
  nowMs: number;
}

/** A file moved to bytes already stored as a chunk. */
export interface ContentToReplace {
  projectId: string;
  fileId: string;
  chunkId: string;
  fileSize: number | undefined;
  nowMs: number;
}

/** The jobs by kind: what a `WriteRequest` names. */
const JOBS = {
  "ingest.store": storeBatch,
  "ingest.retire": retireStoredPaths,
  "chunks.put": storeUploadedChunk,
  "files.replace": moveFileToChunk,
  "storage.collect": (db: Db, input: { nowMs: number }) => collectChunks(db, input.nowMs),
  // Not an upload's, but a commit every RATE_SYNC_MS while requests come in: on the serving thread its fsync held them (rate-limit.ts).
  "rate.record": writeRateBatch,
} as const;

type Jobs = typeof JOBS;
export type WriteKind = keyof Jobs;

/** Runs a job through the queue, typed by its kind. */
export async function runWrite<K extends WriteKind>(
  writes: WriteQueue,
  kind: K,
  input: Parameters<Jobs[K]>[1],
  transfer?: readonly ArrayBuffer[],
): Promise<Awaited<ReturnType<Jobs[K]>>> {
  return (await writes.run({ kind, input }, transfer)) as Awaited<ReturnType<Jobs[K]>>;
}

/** Runs a job on `db`'s connection: the writer thread's, or the caller's own (`inPlaceWrites`). */
export function writeOn(db: Db, request: WriteRequest): Promise<unknown> {
  if (!Object.hasOwn(JOBS, request.kind)) return Promise.reject(new AppError("internal", { cause: new Error(`no write job ${request.kind}`) }));
  const job = JOBS[request.kind as WriteKind] as (db: Db, input: unknown) => Promise<unknown>;
  return job(db, request.input);
}

/** The queue of a process without a writer thread: every job on its own connection. */
export function inPlaceWrites(db: Db): WriteQueue {
  return { run: (request) => writeOn(db, request) };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * In one transaction: stores the accepted bytes, queues their file rows
 * (same path, same file id), lists the files refused for their content as
 * failed with the reason, releases the chunks re-ingested paths left,
 * touches the project's lease and adds one to the corpus version. A batch
 * that takes the project's stored bytes over its quota is refused whole
 * (413 `quota_exceeded`) and nothing of it is stored.
 */
function storeBatch(db: Db, input: BatchToStore): Promise<StoredBatch> {
  const { projectId, nowMs } = input;
  const now = iso(nowMs);
  return db.transaction(async (tx) => {
    const before = await projectStoredBytes(tx, projectId);
    const lease = await touchLease(tx, projectId, input.intent, now);
    const accepted: StoredBatch["accepted"] = [];
    const left: string[] = [];
    for (const f of input.accepted) {
      const { fileId, previousChunkId } = await queueVersion(tx, projectId, f, input.origin, now);
      if (previousChunkId) left.push(previousChunkId);
      accepted.push({ fileId, path: f.path, status: "queued" });
    }
    let listed = 0;
    for (const f of input.refusedFiles) {
      const { changed, previousChunkId } = await listRefused(tx, { ...f, projectId, origin: input.origin }, now);
      if (previousChunkId) left.push(previousChunkId);
      if (changed) listed++;
    }
    await releaseLeftChunks(tx, projectId, left, nowMs);
    await assertWithinQuota(tx, projectId, before, input.quotaBytes);
    const version = accepted.length + listed > 0 ? await bumpCorpusVersion(tx, projectId) : await corpusVersion(tx, projectId);
    return { accepted, leaseId: lease.leaseId, version };
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
 * Retires the paths in one transaction: their readings go with them (text
 * emptied, search rows removed) and so do their bytes, when no other file
 * shares them. Answers how many files were retired.
 */
function retireStoredPaths(db: Db, input: PathsToRetire): Promise<number> {
  const { projectId, nowMs } = input;
  const now = iso(nowMs);
  return db.transaction(async (tx) => {
    const retired = await retireFilesByPath(tx, projectId, input.paths, now);
    for (const { fileId } of retired) {
      await retireFileDerivations(tx, fileId, now);
      await unindexFile(tx, fileId);
    }
    await releaseLeftChunks(tx, projectId, retired.map((r) => r.chunkId), nowMs);
    if (retired.length > 0) await bumpCorpusVersion(tx, projectId);
    return retired.length;
  });
}

/** Stores an uploaded chunk (one statement, the quota checked in it). */
async function storeUploadedChunk(db: Db, input: ChunkToStore): Promise<void> {
  await db.transaction((tx) => putChunk(tx, input.projectId, input.chunkId, input.bytes, iso(input.nowMs), input.quotaBytes, input.stored));
}

/**
 * Moves a file to bytes already stored as a chunk and queues it for an
 * incremental re-read. The chunk it left is deleted in the same transaction
 * when no other file points at it (see replace-content.ts).
 */
function moveFileToChunk(db: Db, input: ContentToReplace): Promise<FileResource> {
  const { projectId, fileId, chunkId, nowMs } = input;
  return db.transaction(async (tx) => {
    const file = await getFile(tx, projectId, fileId);
    if (!file) throw new AppError("file_not_found");
    if (!isEditable(file.fileType as FileType)) throw new AppError("file_not_editable");
    const size = await chunkSize(tx, projectId, chunkId);
    if (size === undefined) throw new AppError("chunk_not_stored");
    if (input.fileSize !== undefined && input.fileSize !== size) {
      throw new AppError("invalid_input", { message: `fileSize ${input.fileSize} does not match the chunk's ${size} bytes` });
    }
    await requeueFile(tx, fileId, chunkId, size, iso(nowMs));
    if (file.chunkId !== chunkId) await releaseLeftChunks(tx, projectId, [file.chunkId], nowMs);
    await bumpCorpusVersion(tx, projectId);
    return toFileResource((await getFile(tx, projectId, fileId))!);
  });
}
