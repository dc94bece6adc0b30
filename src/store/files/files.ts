import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";
import { CHUNK_GRACE_MS, EMPTY_CHUNK_ID, ensureEmptyChunk, releaseChunks } from "./chunks.js";

export type FileStatus = "queued" | "reading" | "ready" | "failed" | "retired";

/** Who put the file in the project: an ingest call, or the folder sync (which retires only its own). */
export type FileOrigin = "api" | "folder";

/** A file as stored. */
export interface FileRow {
  fileId: string;
  projectId: string;
  path: string;
  contentType: string;
  fileType: string;
  fileSize: number;
  chunkId: string;
  status: FileStatus;
  error: string | null;
  readChunkId: string | null;
  reads: number;
  origin: FileOrigin;
  /** The ingest call named the file with includeSecret: the read-time credential scan lets it through too. */
  includeSecret: boolean;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  file_id: string;
  project_id: string;
  path: string;
  content_type: string;
  file_type: string;
  file_size: number;
  chunk_id: string;
  status: FileStatus;
  error: string | null;
  read_chunk_id: string | null;
  reads: number;
  origin: FileOrigin;
  include_secret: number;
  created_at: string;
  updated_at: string;
}

const toFile = (r: Row): FileRow => ({
  fileId: r.file_id,
  projectId: r.project_id,
  path: r.path,
  contentType: r.content_type,
  fileType: r.file_type,
  fileSize: Number(r.file_size),
  chunkId: r.chunk_id,
  status: r.status,
  error: r.error,
  readChunkId: r.read_chunk_id,
  reads: Number(r.reads),
  origin: r.origin,
  includeSecret: Number(r.include_secret) === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface FileVersion {
  projectId: string;
  path: string;
  contentType: string;
  fileType: string;
  fileSize: number;
  chunkId: string;
  origin: FileOrigin;
  /** Stored so that the read-time credential scan honours the caller's includeSecret too; false when absent. */
  includeSecret?: boolean;
}

/**
 * Queues a file version: a new path gets a new file id; a path the project
 * already holds (even retired) keeps its id and is queued again, with the
 * new call's includeSecret. A re-ingest without it withdraws the consent:
 * the file is then read again even if its bytes did not change, so that the
 * reading made under the consent is checked for credentials.
 */
export async function upsertQueuedFile(q: Queryable, v: FileVersion, now: string): Promise<FileRow> {
  const row = await q.get<Row>(
    `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, origin, include_secret,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)
     ON CONFLICT (project_id, path) DO UPDATE SET
       content_type = excluded.content_type, file_type = excluded.file_type, file_size = excluded.file_size,
       chunk_id = excluded.chunk_id, status = 'queued', error = NULL, attempts = 0, isolated_reads = 0, origin = excluded.origin,
       include_secret = excluded.include_secret, updated_at = excluded.updated_at,
       read_chunk_id = CASE WHEN excluded.include_secret < files.include_secret THEN NULL ELSE files.read_chunk_id END
     RETURNING *`,
    [newId("fil"), v.projectId, v.path, v.contentType, v.fileType, v.fileSize, v.chunkId, v.origin, v.includeSecret ? 1 : 0, now, now],
  );
  return toFile(row!);
}

/** A file refused before it was stored (credential-shaped bytes): what it was, and why. */
export interface RefusedVersion {
  projectId: string;
  path: string;
  contentType: string;
  fileType: string;
  origin: FileOrigin;
  reason: string;
}

/**
 * Lists a refused file as `failed` with its reason, holding no bytes (the
 * empty chunk), so that it is never absent from the project's files while
 * its caller was told why. A path the project already holds keeps its id
 * and gives up its version: answers the file id, and the row as it was
 * (retired or not) when there was one, for the caller to retire its
 * reading and release its bytes.
 */
export async function upsertRefusedFile(q: Queryable, v: RefusedVersion, now: string): Promise<{ fileId: string; previous?: FileRow }> {
  const before = await q.get<Row>("SELECT * FROM files WHERE project_id = ? AND path = ?", [v.projectId, v.path]);
  // Listed already, for the same reason: nothing to write (a folder sync sends a refused file each time).
  if (before && before.status === "failed" && before.error === v.reason && before.chunk_id === EMPTY_CHUNK_ID) {
    return { fileId: before.file_id, previous: toFile(before) };
  }
  await ensureEmptyChunk(q, v.projectId, now);
  const row = await q.get<{ file_id: string }>(
    `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, error, origin,
       include_secret, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, 'failed', ?, ?, 0, ?, ?)
     ON CONFLICT (project_id, path) DO UPDATE SET
       content_type = excluded.content_type, file_type = excluded.file_type, file_size = 0, chunk_id = excluded.chunk_id,
       status = 'failed', error = excluded.error, attempts = 0, isolated_reads = 0, origin = excluded.origin, include_secret = 0,
       read_chunk_id = NULL, updated_at = excluded.updated_at
     RETURNING file_id`,
    [newId("fil"), v.projectId, v.path, v.contentType, v.fileType, EMPTY_CHUNK_ID, v.reason, v.origin, now, now],
  );
  return before ? { fileId: row!.file_id, previous: toFile(before) } : { fileId: row!.file_id };
}

/** The chunk a path of the project points at now (retired or not), if the project holds the path. */
export async function chunkOfPath(q: Queryable, projectId: string, path: string): Promise<string | undefined> {
  const row = await q.get<{ chunk_id: string }>("SELECT chunk_id FROM files WHERE project_id = ? AND path = ?", [projectId, path]);
  return row?.chunk_id;
}

export async function getFile(q: Queryable, projectId: string, fileId: string): Promise<FileRow | undefined> {
  const row = await q.get<Row>("SELECT * FROM files WHERE project_id = ? AND file_id = ? AND status <> 'retired'", [
    projectId,
    fileId,
  ]);
  return row && toFile(row);
}

/** Every live file of a project, by path. */
export async function listLiveFiles(q: Queryable, projectId: string): Promise<FileRow[]> {
  const rows = await q.all<Row>("SELECT * FROM files WHERE project_id = ? AND status <> 'retired' ORDER BY path", [projectId]);
  return rows.map(toFile);
}

/** Points a file at new bytes and queues it; the new version starts with no attempts. */
export async function requeueFile(q: Queryable, fileId: string, chunkId: string, fileSize: number, now: string): Promise<void> {
  await q.execute(
    "UPDATE files SET chunk_id = ?, file_size = ?, status = 'queued', error = NULL, attempts = 0, isolated_reads = 0, updated_at = ? WHERE file_id = ?",
    [chunkId, fileSize, now, fileId],
  );
}

/** A claimed file, with the claims its current version has had (this one included). */
export interface ClaimedFile extends FileRow {
  attempts: number;
}

/** Whether any file waits to be read. */
export async function hasQueued(q: Queryable): Promise<boolean> {
  return (await q.get("SELECT 1 FROM files WHERE status = 'queued' LIMIT 1")) !== undefined;
}

/**
 * Claims the oldest queued files for reading, up to `limit`, atomically: the
 * caller holds a write transaction, so two workers never claim the same file.
 * One commit for several claims keeps fsyncs down. Each claim counts an
 * attempt; a claim with attempts above 1 is a retry of a reading that never
 * finished, which the worker reads isolated.
 */
export async function claimQueued(q: Queryable, now: string, limit: number): Promise<ClaimedFile[]> {
  const rows = await q.all<Row & { attempts: number }>(
    `UPDATE files SET status = 'reading', attempts = attempts + 1, updated_at = ?
     WHERE file_id IN (SELECT file_id FROM files WHERE status = 'queued' ORDER BY updated_at, file_id LIMIT ?)
     RETURNING *`,
    [now, limit],
  );
  return rows
    .map((r) => ({ ...toFile(r), attempts: Number(r.attempts) }))
    .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.fileId.localeCompare(b.fileId));
}

/**
 * Marks a claimed file's reading finished, if it was not re-queued
 * meanwhile; its attempts are settled. A reading of new bytes releases the
 * chunk the previous reading was read from (kept for it until now: see
 * `releaseChunks`).
 */
export async function finishReading(
  q: Queryable,
  fileId: string,
  chunkId: string,
  outcome: { status: "ready" } | { status: "failed"; error: string },
  now: string,
): Promise<boolean> {
  const before = await q.get<{ project_id: string; read_chunk_id: string | null }>("SELECT project_id, read_chunk_id FROM files WHERE file_id = ?", [fileId]);
  const r = await q.execute(
    `UPDATE files SET status = ?, error = ?, read_chunk_id = CASE WHEN ? = 'ready' THEN chunk_id ELSE read_chunk_id END,
       reads = reads + 1, attempts = 0, isolated_reads = 0, updated_at = ?
     WHERE file_id = ? AND chunk_id = ? AND status = 'reading'`,
    [outcome.status, outcome.status === "failed" ? outcome.error : null, outcome.status, now, fileId, chunkId],
  );
  if (r.rowsAffected === 0) return false;
  const left = before?.read_chunk_id;
  if (outcome.status === "ready" && left && left !== chunkId) await releaseReadChunk(q, before.project_id, left, now);
  return true;
}

/** Releases a chunk a file was read from and no longer is, past an upload's grace (as a chunk a file moved off). */
async function releaseReadChunk(q: Queryable, projectId: string, chunkId: string, now: string): Promise<void> {
  await releaseChunks(q, projectId, [chunkId], new Date(Date.parse(now) - CHUNK_GRACE_MS).toISOString(), now);
}

/**
 * Readings begun alone (see `beginIsolatedRead`) a file may lose to a
 * stopped server before it fails at start: the first reading among others
 * may have been stopped by any of them, a reading alone only by this file
 * (or by a kill from outside, which a second one makes unlikely).
 */
export const MAX_ISOLATED_INTERRUPTIONS = 2;

/** The reason a file interrupted too often is `failed` with. */
export const INTERRUPTED_TWICE =
  "the reading was interrupted twice while the file was read alone (the server stopped each time); send the file again to read it again";

/**
 * Counts a reading alone as it begins, in a transaction of its own that
 * commits before the reader gets the file: a server killed during the
 * reading leaves the count behind for its next start.
 */
export async function beginIsolatedRead(q: Queryable, fileId: string, chunkId: string): Promise<void> {
  await q.execute("UPDATE files SET isolated_reads = isolated_reads + 1 WHERE file_id = ? AND chunk_id = ? AND status = 'reading'", [
    fileId,
    chunkId,
  ]);
}

/**
 * At start, in the caller's transaction: files left `reading` by a stopped
 * process after MAX_ISOLATED_INTERRUPTIONS readings alone fail with
 * INTERRUPTED_TWICE (never queued again); the rest are queued again keeping
 * their attempts, so the next claim of each is known as a retry. Returns how
 * many of each.
 */
export async function requeueInterrupted(q: Queryable, now: string): Promise<{ requeued: number; failed: number }> {
  const failed = await q.execute(
    `UPDATE files SET status = 'failed', error = ?, reads = reads + 1, attempts = 0, isolated_reads = 0, updated_at = ?
     WHERE status = 'reading' AND isolated_reads >= ?`,
    [INTERRUPTED_TWICE, now, MAX_ISOLATED_INTERRUPTIONS],
  );
  const requeued = await q.execute("UPDATE files SET status = 'queued', updated_at = ? WHERE status = 'reading'", [now]);
  return { requeued: requeued.rowsAffected, failed: failed.rowsAffected };
}

/**
 * Gives back claims a stopping worker did not finish (or whose commit found
 * no space): the files are queued again and the claim is not counted, nor
 * the reading alone it began (`isolatedBegun`), as the file did not stop
 * the process.
 */
export async function releaseClaims(
  q: Queryable,
  claims: ReadonlyArray<{ fileId: string; chunkId: string; isolatedBegun?: boolean }>,
  now: string,
): Promise<void> {
  for (const c of claims) {
    await q.execute(
      `UPDATE files SET status = 'queued', attempts = max(attempts - 1, 0), isolated_reads = max(isolated_reads - ?, 0), updated_at = ?
       WHERE file_id = ? AND chunk_id = ? AND status = 'reading'`,
      [c.isolatedBegun ? 1 : 0, now, c.fileId, c.chunkId],
    );
  }
}

/**
 * Retires files by path. A retired file keeps its row (id and path, for
 * lineage) but no bytes: it points at the empty chunk, so the chunk it left
 * can be released. Returns each retired file with the chunk it left.
 */
export async function retireFilesByPath(
  q: Queryable,
  projectId: string,
  paths: readonly string[],
  now: string,
): Promise<Array<{ fileId: string; chunkId: string }>> {
  const out: Array<{ fileId: string; chunkId: string }> = [];
  for (const path of paths) {
    const row = await q.get<{ file_id: string; chunk_id: string }>(
      "SELECT file_id, chunk_id FROM files WHERE project_id = ? AND path = ? AND status <> 'retired'",
      [projectId, path],
    );
    if (!row) continue;
    if (out.length === 0) await ensureEmptyChunk(q, projectId, now);
    await q.execute(
      `UPDATE files SET status = 'retired', chunk_id = ?, file_size = 0, read_chunk_id = NULL, error = NULL, updated_at = ?
       WHERE file_id = ?`,
      [EMPTY_CHUNK_ID, now, row.file_id],
    );
    out.push({ fileId: row.file_id, chunkId: row.chunk_id });
  }
  return out;
}

/** Counts of a project's files by status. */
export async function fileStatusCounts(q: Queryable, projectId: string): Promise<Record<FileStatus, number> & { updatedAt: string | null }> {
  const rows = await q.all<{ status: FileStatus; n: number; at: string }>(
    "SELECT status, count(*) AS n, max(updated_at) AS at FROM files WHERE project_id = ? GROUP BY status",
    [projectId],
  );
  const counts = { queued: 0, reading: 0, ready: 0, failed: 0, retired: 0, updatedAt: null as string | null };
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    if (!counts.updatedAt || r.at > counts.updatedAt) counts.updatedAt = r.at;
  }
  return counts;
}

/** One page of live files by id, optionally under a path prefix and of one status. */
export async function readFilePage(
  q: Queryable,
  f: { projectIds: readonly string[]; pathPrefix?: string; status?: string },
  afterId: string | undefined,
  limit: number,
): Promise<FileRow[]> {
  const args: unknown[] = [...f.projectIds];
  let sql = `SELECT * FROM files WHERE status <> 'retired' AND project_id IN (${f.projectIds.map(() => "?").join(", ")})`;
  if (f.pathPrefix) {
    // SQLite's substr counts code points, JavaScript's length UTF-16 units: count code points here too.
    sql += " AND substr(path, 1, ?) = ?";
    args.push([...f.pathPrefix].length, f.pathPrefix);
  }
  if (f.status) {
    sql += " AND status = ?";
    args.push(f.status);
  }
  if (afterId) {
    sql += " AND file_id > ?";
    args.push(afterId);
  }
  const rows = await q.all<Row>(`${sql} ORDER BY file_id LIMIT ?`, [...(args as string[]), limit]);
  return rows.map(toFile);
}

/** A live file of one of these projects. */
export async function findLiveFile(q: Queryable, projectIds: readonly string[], fileId: string): Promise<FileRow | undefined> {
  const row = await q.get<Row>(
    `SELECT * FROM files WHERE file_id = ? AND status <> 'retired' AND project_id IN (${projectIds.map(() => "?").join(", ")})`,
    [fileId, ...projectIds],
  );
  return row && toFile(row);
}

/**
 * Drops a file's bytes after its reading was refused (a credential): the
 * file points at the empty chunk (the column is a foreign key), forgets what
 * it was read from, and the chunk is deleted — within an upload's grace too —
 * unless another file still points at it.
 */
export async function dropFileBytes(q: Queryable, projectId: string, fileId: string, chunkId: string, now: string): Promise<void> {
  await ensureEmptyChunk(q, projectId, now);
  const before = await q.get<{ read_chunk_id: string | null }>("SELECT read_chunk_id FROM files WHERE file_id = ?", [fileId]);
  await q.execute("UPDATE files SET chunk_id = ?, file_size = 0, read_chunk_id = NULL WHERE file_id = ?", [EMPTY_CHUNK_ID, fileId]);
  await releaseChunks(q, projectId, [chunkId], "9999-12-31T23:59:59.999Z", now);
  // The earlier reading's chunk, kept for it, goes as a chunk left by a new version would.
  const left = before?.read_chunk_id;
  if (left && left !== chunkId) await releaseReadChunk(q, projectId, left, now);
}
