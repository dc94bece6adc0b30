/**
 * The bounds of a project's stored bytes: chunks a file moved off are
 * released in the transaction that moved it, stray uploads are collected on
 * a schedule after their grace, a project's stored bytes (chunks and
 * records) are held to a quota, spam records expire, and removed text and bytes are purged from the full-text indexes
 * and the WAL.
 */
import { AppError } from "../../errors.js";
import { checkpointWal } from "../../store/db.js";
import type { Checkpoint, Db, Queryable } from "../../store/db.js";
import { CHUNK_GRACE_MS, DEFAULT_PROJECT_QUOTA_BYTES, deleteStrayChunks, projectStoredBytes, releaseChunks } from "../../store/files/chunks.js";
import type { Collected } from "../../store/files/chunks.js";
import { deleteSpamBefore } from "../../store/records/records.js";
import { purgeSearchIndexes } from "../../store/search/search-index.js";

export { CHUNK_GRACE_MS, DEFAULT_PROJECT_QUOTA_BYTES };

/** How long a spam record (a filled honeypot) is kept: a week to look at a burst, then it stops costing storage. */
export const SPAM_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How often the application should call `collectChunks`: stray uploads go
 * between one and one and a sixth hours after their last upload, and
 * removed text leaves the indexes and the WAL within ten minutes.
 */
export const COLLECT_INTERVAL_MS = 10 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Deletes, in the caller's transaction, the chunks files just moved off
 * (content replaced, path re-ingested with other bytes, file retired) when
 * no file points at them any more. A chunk uploaded within its grace stays
 * (an upload may be on its way to a content replacement); the collection
 * takes it later.
 */
export function releaseLeftChunks(tx: Queryable, projectId: string, chunkIds: readonly string[], nowMs: number): Promise<Collected> {
  if (chunkIds.length === 0) return Promise.resolve({ chunks: 0, bytes: 0 });
  return releaseChunks(tx, projectId, chunkIds, iso(nowMs - CHUNK_GRACE_MS), iso(nowMs));
}

/**
 * Refuses with `quota_exceeded` (413) when the call's writes, still
 * uncommitted in `tx`, took the project's stored bytes (chunks and
 * records) over the quota.
 * Throwing rolls the whole call back. A call that does not add to a project
 * already over its quota (after the quota was lowered) still passes, so
 * bytes can always be replaced by fewer.
 */
export async function assertWithinQuota(tx: Queryable, projectId: string, before: number, quotaBytes: number): Promise<void> {
  const after = await projectStoredBytes(tx, projectId);
  if (after > quotaBytes && after > before) throw new AppError("quota_exceeded");
}

/** What one collection did. */
export interface Collection {
  /** Stray chunks deleted (unreferenced, past their grace) and their bytes. */
  chunks: number;
  bytes: number;
  /** Whether removed text was purged from the full-text indexes. */
  purged: boolean;
  /** The WAL truncation that ends every pass (undefined on a remote database). */
  checkpoint: Checkpoint | undefined;
}

/**
 * The scheduled storage pass (every `COLLECT_INTERVAL_MS`): deletes every
 * chunk no file points at whose last upload or ingest is older than the
 * grace; when anything removed text or bytes since the last pass, rewrites
 * the full-text indexes without the removed terms; then truncates the WAL
 * (every pass: cheap when it is empty, and a pass that found a reader in
 * the way is made good by the next). Spam records older than
 * `SPAM_KEPT_MS` go in the same pass. Removed bytes are then in neither the
 * database file (`secure_delete` zeroes freed space) nor its WAL.
 */
export async function collectChunks(db: Db, nowMs: number, graceMs: number = CHUNK_GRACE_MS): Promise<Collection> {
  const { chunks, bytes, purged } = await db.transaction(async (tx) => {
    const stray = await deleteStrayChunks(tx, iso(nowMs - graceMs), iso(nowMs));
    await deleteSpamBefore(tx, iso(nowMs - SPAM_KEPT_MS));
    return { ...stray, purged: await purgeSearchIndexes(tx) };
  });
  const checkpoint = await checkpointWal(db);
  return { chunks, bytes, purged, checkpoint };
}
