import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { constants, deflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";
import { AppError } from "../../errors.js";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { notePurge } from "../search/search-index.js";

/** `sha256:<hex>` of some bytes: a chunk's id. */
export function chunkIdOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/**
 * The chunk of no bytes. A retired file points here: `files.chunk_id` cannot
 * be NULL and must name a stored chunk, and a retired file keeps no bytes.
 */
export const EMPTY_CHUNK_ID = chunkIdOf(new Uint8Array(0));

/** Stored chunk bytes a project may hold (live files and pending uploads) unless configured otherwise: 1 GiB. */
export const DEFAULT_PROJECT_QUOTA_BYTES = 1024 * 1024 * 1024;

/**
 * How long an uploaded chunk nothing points at is kept after its latest
 * upload: an upload and the content replacement naming it are two calls, and
 * the second must never find the bytes collected.
 */
export const CHUNK_GRACE_MS = 60 * 60 * 1000;

const toBlob = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * A chunk's bytes as stored: deflated (raw DEFLATE, `0026-chunk-deflate.sql`)
 * when that saves at least an eighth, else as they came (images, PDF, Word
 * and other packed formats gain nothing). zlib, because Node carries it
 * (zstd is not in Node 20), at its default level 6: on 74 MB of files
 * (vuejs/core, sympy, numpy) level 1 stored 22.7 MB in 1.3 s of CPU, level
 * 6 20.0 MB in 2.7 s (12 % less, about 2 s more CPU per 100 MB of text, on
 * the accept thread before the transaction), level 9 19.9 MB in 6.3 s.
 * Reading a chunk back costs about a tenth of a millisecond per 10 kB, at
 * any level.
 */
export interface StoredChunk {
  readonly bytes: Uint8Array;
  readonly deflated: boolean;
}

const DEFLATE_OPTIONS = { level: 6, strategy: constants.Z_DEFAULT_STRATEGY };
/** Below this many bytes a chunk is stored as it is (the saving is nothing). */
const DEFLATE_MIN_BYTES = 64;
const deflateAsync = promisify(deflateRaw);
/** Files deflated at once by `packChunks`. */
const PACK_AT_ONCE = 4;

const storedForm = (bytes: Uint8Array, deflated: Uint8Array | undefined): StoredChunk =>
  deflated && deflated.byteLength <= bytes.byteLength * 0.875 ? { bytes: deflated, deflated: true } : { bytes, deflated: false };

/**
 * The stored form of some bytes, deflated on libuv's thread pool: an ingest
 * packs its files before its transaction, so neither the serving thread nor
 * the write lock waits for the compression.
 */
export async function packChunk(bytes: Uint8Array): Promise<StoredChunk> {
  if (bytes.byteLength < DEFLATE_MIN_BYTES) return { bytes, deflated: false };
  return storedForm(bytes, await deflateAsync(bytes, DEFLATE_OPTIONS));
}

/**
 * The stored forms of many files, PACK_AT_ONCE at a time: each deflate under
 * way holds its own native state and output (a few hundred kilobytes), and
 * a folder sync hands over all its files at once (706 on vuejs/core); libuv
 * runs four at a time anyway.
 */
export async function packChunks(list: readonly Uint8Array[]): Promise<StoredChunk[]> {
  const out: StoredChunk[] = new Array<StoredChunk>(list.length);
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await packChunk(list[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PACK_AT_ONCE, list.length) }, lane));
  return out;
}

/** The same, at once (a single small upload, a test). */
export function packChunkNow(bytes: Uint8Array): StoredChunk {
  if (bytes.byteLength < DEFLATE_MIN_BYTES) return { bytes, deflated: false };
  return storedForm(bytes, deflateRawSync(bytes, DEFLATE_OPTIONS));
}

/**
 * Stores uploaded bytes (`PUT …/chunks/{id}`) as a pending chunk; bytes
 * already stored only have their upload time renewed. New bytes that would
 * take the project's stored bytes (chunks and records) over `quotaBytes` are refused with
 * `quota_exceeded` and nothing is written: the check and the insert are one
 * statement, so concurrent uploads cannot pass the quota together.
 */
export async function putChunk(
  q: Queryable,
  projectId: string,
  chunkId: string,
  bytes: Uint8Array,
  now: string,
  quotaBytes: number = DEFAULT_PROJECT_QUOTA_BYTES,
  stored: StoredChunk = packChunkNow(bytes),
): Promise<void> {
  const renewed = await q.execute("UPDATE chunks SET uploaded_at = ? WHERE project_id = ? AND chunk_id = ?", [now, projectId, chunkId]);
  if (renewed.rowsAffected > 0) return;
  const inserted = await q.execute(
    `INSERT INTO chunks (project_id, chunk_id, size, bytes, deflated, created_at, uploaded_at)
     SELECT ?1, ?2, ?3, ?4, ?7, ?5, ?5 WHERE (SELECT coalesce(sum(size), 0) FROM chunks WHERE project_id = ?1)
       + (SELECT coalesce(sum(size), 0) FROM records WHERE project_id = ?1) + ?3 <= ?6
     ON CONFLICT (project_id, chunk_id) DO UPDATE SET uploaded_at = excluded.uploaded_at`,
    [projectId, chunkId, bytes.byteLength, toBlob(stored.bytes), now, quotaBytes, stored.deflated ? 1 : 0],
  );
  if (inserted.rowsAffected === 0) throw new AppError("quota_exceeded");
}

/**
 * Stores bytes that arrive with an ingest call (a no-op when already
 * stored), in their stored form when the caller packed them beforehand
 * (`packChunk`). The caller points a file at them in the same transaction
 * and checks the project's quota before it commits.
 */
export async function putIngestedChunk(
  q: Queryable,
  projectId: string,
  chunkId: string,
  bytes: Uint8Array,
  now: string,
  stored: StoredChunk = packChunkNow(bytes),
): Promise<void> {
  await q.execute(
    "INSERT INTO chunks (project_id, chunk_id, size, bytes, deflated, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    [projectId, chunkId, bytes.byteLength, toBlob(stored.bytes), stored.deflated ? 1 : 0, now],
  );
}

/** Makes sure the project holds the empty chunk, so a retired file can point at it. */
export async function ensureEmptyChunk(q: Queryable, projectId: string, now: string): Promise<void> {
  await putIngestedChunk(q, projectId, EMPTY_CHUNK_ID, new Uint8Array(0), now);
}

/** Bytes of every chunk the project stores: what its quota counts (read from an index, not the blobs). */
/** What counts against a project's quota: its chunk bytes and its records' bytes. */
export async function projectStoredBytes(q: Queryable, projectId: string): Promise<number> {
  const row = await q.get<{ n: number }>(
    `SELECT (SELECT coalesce(sum(size), 0) FROM chunks WHERE project_id = ?1)
          + (SELECT coalesce(sum(size), 0) FROM records WHERE project_id = ?1) AS n`,
    [projectId],
  );
  return Number(row?.n ?? 0);
}

export async function projectChunkBytes(q: Queryable, projectId: string): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT coalesce(sum(size), 0) AS n FROM chunks WHERE project_id = ?", [projectId]);
  return Number(row?.n ?? 0);
}

/** The chunk's bytes (inflated when stored deflated), or undefined when they never landed. */
export async function getChunkBytes(q: Queryable, projectId: string, chunkId: string): Promise<Uint8Array | undefined> {
  const row = await q.get<{ bytes: ArrayBuffer | Uint8Array; deflated: number | bigint }>(
    "SELECT bytes, deflated FROM chunks WHERE project_id = ? AND chunk_id = ?",
    [projectId, chunkId],
  );
  // The local binding answers bytes, a remote client an ArrayBuffer: neither is copied.
  if (!row) return undefined;
  const bytes = row.bytes instanceof Uint8Array ? row.bytes : new Uint8Array(row.bytes);
  if (Number(row.deflated) !== 1) return bytes;
  const inflated = inflateRawSync(bytes);
  return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
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

/** What a collection removed. */
export interface Collected {
  chunks: number;
  bytes: number;
}

/**
 * No file holds the chunk, nor was read from it: a reading's code units may
 * be stored as lines of the chunk read (see graph/faction-text.ts), so that
 * chunk stays until the file is read again (`finishReading` releases it) or
 * leaves it. A file read from the chunk it holds is found by the first test,
 * so the second asks only of files read from another chunk: the index of
 * read chunks holds those alone (`0043-sparse-indexes.sql`), and its
 * condition must stand here as written for SQLite to use it.
 */
const UNREFERENCED = `NOT EXISTS (SELECT 1 FROM files f WHERE f.project_id = chunks.project_id AND f.chunk_id = chunks.chunk_id)
  AND NOT EXISTS (SELECT 1 FROM files f WHERE f.project_id = chunks.project_id AND f.read_chunk_id = chunks.chunk_id AND f.read_chunk_id <> f.chunk_id)`;

/**
 * Deletes these chunks of a project when no file points at them and they
 * were not uploaded after `uploadedBefore` (an upload's grace). Run in the
 * transaction that moved files off them; notes a purge when bytes went.
 */
export async function releaseChunks(
  q: Queryable,
  projectId: string,
  chunkIds: readonly string[],
  uploadedBefore: string,
  now: string,
): Promise<Collected> {
  const out: Collected = { chunks: 0, bytes: 0 };
  const ids = [...new Set(chunkIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    const rows = await q.all<{ size: number }>(
      `DELETE FROM chunks WHERE project_id = ? AND chunk_id IN (${placeholders(slice.length)})
         AND (uploaded_at IS NULL OR uploaded_at < ?) AND ${UNREFERENCED} RETURNING size`,
      [projectId, ...slice, uploadedBefore],
    );
    out.chunks += rows.length;
    out.bytes += rows.reduce((n, r) => n + Number(r.size), 0);
  }
  if (out.chunks > 0) await notePurge(q, now);
  return out;
}

/**
 * Deletes every chunk, in any project, that no file points at and that has
 * not come in (uploaded, or stored by an ingest) since `before`: stray
 * uploads past their grace, and chunks left by older versions of the store.
 */
export async function deleteStrayChunks(q: Queryable, before: string, now: string): Promise<Collected> {
  const rows = await q.all<{ size: number }>(
    `DELETE FROM chunks WHERE coalesce(uploaded_at, created_at) < ? AND ${UNREFERENCED} RETURNING size`,
    [before],
  );
  const out = { chunks: rows.length, bytes: rows.reduce((n, r) => n + Number(r.size), 0) };
  if (out.chunks > 0) await notePurge(q, now);
  return out;
}
