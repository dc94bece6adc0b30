import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Tools } from "../../core/tools.js";
import { isAppError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { chunkIdOf } from "../../store/files/chunks.js";
import { fileStatusCounts, listLiveFiles } from "../../store/files/files.js";
import { projectStats } from "../../store/files/project-stats.js";
import type { ProjectStats } from "../../store/files/project-stats.js";
import { getProject } from "../../store/access/projects.js";
import type { IncomingFile, Refusal } from "../accept/accept-files.js";
import type { FolderRules } from "./folder-rules.js";
import { isWithin, scanFolder } from "./folder-scan.js";
import type { FolderScan, ScannedFile, SkippedFile } from "./folder-scan.js";
import { ingestBatch, retirePaths } from "../accept/ingest-batch.js";
import type { IngestWorker } from "../read/ingest-worker.js";

/**
 * One transaction stores at most this many files … The transaction runs on
 * the writer thread's connection (`tools.writes`), between the group commits
 * of readings, which wait behind it: 200 files (8 MB) a transaction held the
 * write lock 50–130 ms at a time through a cold sync; batches of this size
 * hold it a few milliseconds, for a few more commits (vuejs/core: 4 -> about
 * 25, against the readings' 240).
 */
const BATCH_FILES = 32;
/** … or about this many bytes (a single bigger file goes alone). */
const BATCH_BYTES = 1024 * 1024;
const READ_POLL_MS = 250;
/** Files read and hashed ahead of the one being compared: reading overlaps, measured 2× faster. */
const READ_AHEAD = 8;
const SYNC_INTENT = "folder sync";

/** What a sync needs of the app: the store, the clock and the reading worker. */
export interface SyncHost {
  readonly db: Db;
  readonly tools: Pick<Tools, "clock" | "storage" | "scans" | "writes">;
  readonly worker: Pick<IngestWorker, "kick" | "whenIdle">;
}

/** Size, mtime and hash of each file as last read, so an untouched file is not read again. */
export type SyncCache = Map<string, { size: number; mtimeMs: number; chunkId: string }>;

/** Where a sync is: `total` is 0 while unknown (scanning). */
export interface SyncProgress {
  phase: "scan" | "store" | "read";
  done: number;
  total: number;
}

/** Progress, caching, rule reuse and cancellation of a sync. */
export interface SyncOptions {
  onProgress?: (progress: SyncProgress) => void;
  cache?: SyncCache;
  /** Exclusion rules to reuse; read afresh when absent. */
  rules?: FolderRules;
  /** Called with each folder the walk enters, before it is listed. */
  onDir?: (dir: string) => void;
  signal?: AbortSignal;
}

/** What one sync did to the project. */
export interface SyncChanges {
  added: number;
  changed: number;
  unchanged: number;
  retired: number;
  /** Files the ingest checks refused (e.g. credential-shaped): listed, never fatal. */
  refused: Refusal[];
  /** Files the scan left out for their size or where they lead. */
  skipped: SkippedFile[];
}

/** A finished sync: its changes, then what the project holds once reading is done. */
export type SyncSummary = { files: number } & SyncChanges & Omit<ProjectStats, "files"> & { seconds: number };

/**
 * Makes the project match the folder, then waits until every queued file is
 * read: new and changed files (by sha256) are ingested in batches, files no
 * longer on disk retired. Only the folder's own project (its root path is
 * this folder) has its other files retired; any other project is only added
 * to.
 */
export async function syncFolder(host: SyncHost, projectId: string, root: string, options: SyncOptions = {}): Promise<SyncSummary> {
  const started = performance.now();
  const changes = await applyFolder(host, projectId, root, options);
  return summarizeSync(host, projectId, changes, started, options);
}

/** The whole folder against the project, without waiting for reading. */
export async function applyFolder(host: SyncHost, projectId: string, root: string, options: SyncOptions = {}): Promise<SyncChanges> {
  const onFile = options.onProgress && ((found: number) => options.onProgress?.({ phase: "scan", done: found, total: 0 }));
  const scan = await scanFolder(root, { rules: options.rules, onDir: options.onDir, onFile });
  return reconcile(host, projectId, root, scan, () => true, options);
}

/**
 * Only the named paths (files or folders, relative) against the project:
 * what is there is read if it changed, what is gone or now excluded is
 * retired, with everything below it. Does not wait for reading.
 */
export async function applyPaths(
  host: SyncHost,
  projectId: string,
  root: string,
  paths: readonly string[],
  options: SyncOptions = {},
): Promise<SyncChanges> {
  const scan = await scanFolder(root, { rules: options.rules, onDir: options.onDir, paths });
  const named = new Set(paths);
  return reconcile(host, projectId, root, scan, (path) => isWithin(path, named), options);
}

/** Waits for reading, then adds the project's counts and the elapsed time to a sync's changes. */
export async function summarizeSync(
  host: SyncHost,
  projectId: string,
  changes: SyncChanges,
  startedMs: number,
  options: SyncOptions = {},
): Promise<SyncSummary> {
  await waitForReading(host, projectId, changes.added + changes.changed, options);
  const stats = await projectStats(host.db, projectId);
  const seconds = Math.round(performance.now() - startedMs) / 1000;
  return { files: stats.files, ...changes, failed: stats.failed, factions: stats.factions, cells: stats.cells, entities: stats.entities, seconds };
}

/**
 * The scanned files in an order that mixes folders (by a hash of each
 * path, the same every time). Files are read in about the order they were
 * stored, and a tree's folders differ in what they cost where: prose
 * (changelogs, guides) in the reader thread, source files in the writer's
 * transactions (symbols, references, search rows). Stored in path order, a
 * cold ingest of vuejs/core kept the reader busy and the writer half idle
 * for its first half, and the other way round for the second.
 */
function mixedOrder(files: readonly ScannedFile[]): ScannedFile[] {
  const key = (path: string) => createHash("sha1").update(path).digest("hex").slice(0, 12);
  return files
    .map((file) => ({ file, key: key(file.path) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.file);
}

async function reconcile(
  host: SyncHost,
  projectId: string,
  root: string,
  scan: FolderScan,
  inScope: (path: string) => boolean,
  options: SyncOptions,
): Promise<SyncChanges> {
  const { db } = host;
  const liveFiles = await listLiveFiles(db, projectId);
  const live = new Map(liveFiles.map((f) => [f.path, f.chunkId]));
  const synced = new Set(liveFiles.filter((f) => f.origin === "folder").map((f) => f.path));
  const store = new BatchStore(host, projectId, live, options.cache);
  const total = scan.files.length;
  let done = 0;
  for await (const [file, version] of readAhead(mixedOrder(scan.files), READ_AHEAD, (f) => store.versionOf(f))) {
    options.signal?.throwIfAborted();
    options.onProgress?.({ phase: "store", done: done++, total });
    await store.take(file, version);
  }
  await store.flush();
  options.onProgress?.({ phase: "store", done: total, total });
  forgetVanished(options.cache, scan, inScope);
  const managed = (await getProject(db, projectId))?.rootPath === resolve(root);
  // Files an ingest call put in the project are the caller's to keep, not the folder's to retire.
  const gone = managed ? [...synced].filter((path) => inScope(path) && !store.kept.has(path)) : [];
  const retired = await retirePaths({ projectId }, gone, host.tools);
  const { added, changed, unchanged, refused } = store;
  return { added, changed, unchanged, retired, refused, skipped: scan.skipped };
}

/** Hashes files against the live ones and ingests the changed ones in bounded batches. */
class BatchStore {
  added = 0;
  changed = 0;
  unchanged = 0;
  /** Paths whose disk version is now the project's. */
  readonly kept = new Set<string>();
  readonly refused: Refusal[] = [];
  #pending: IncomingFile[] = [];
  #pendingBytes = 0;

  constructor(
    private readonly host: SyncHost,
    private readonly projectId: string,
    private readonly live: ReadonlyMap<string, string>,
    private readonly cache: SyncCache | undefined,
  ) {}

  /** The file's disk version: its hash, and its bytes unless it is known to match the live file. */
  async versionOf(file: ScannedFile): Promise<DiskVersion | undefined> {
    const seen = this.cache?.get(file.path);
    if (seen && seen.chunkId === this.live.get(file.path) && seen.size === file.size && seen.mtimeMs === file.mtimeMs) {
      return { chunkId: seen.chunkId };
    }
    const bytes = await readFile(file.absPath).catch(() => undefined);
    if (!bytes) return undefined;
    const chunkId = chunkIdOf(bytes);
    this.cache?.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, chunkId });
    return { chunkId, bytes };
  }

  /** Keeps an unchanged file, or queues a changed one for the next batch. */
  async take(file: ScannedFile, version: DiskVersion | undefined): Promise<void> {
    // Gone since the scan: it is retired with the rest.
    if (!version) return;
    if (version.chunkId === this.live.get(file.path) || !version.bytes) {
      this.kept.add(file.path);
      this.unchanged++;
      return;
    }
    this.#pending.push({ path: file.path, bytes: version.bytes });
    this.#pendingBytes += version.bytes.byteLength;
    if (this.#pending.length >= BATCH_FILES || this.#pendingBytes >= BATCH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const files = this.#pending;
    this.#pending = [];
    this.#pendingBytes = 0;
    let answer;
    try {
      const input = { files, intent: SYNC_INTENT, origin: "folder" as const, quotaBytes: this.host.tools.storage.quotaBytes };
      answer = await ingestBatch({ projectId: this.projectId }, input, this.host.tools);
    } catch (err) {
      // Over the project's quota the whole batch is refused; the sync lists its files and goes on.
      if (!(isAppError(err) && err.code === "quota_exceeded")) throw err;
      this.refused.push(...files.map((f) => ({ path: f.path as string, reason: err.message })));
      return;
    }
    for (const a of answer.accepted) {
      this.kept.add(a.path);
      if (this.live.has(a.path)) this.changed++;
      else this.added++;
    }
    // A refused file is listed in the project as failed with its reason: the folder still holds it.
    for (const r of answer.refused) this.kept.add(r.path);
    this.refused.push(...answer.refused);
    if (answer.accepted.length > 0) this.host.worker.kick();
  }

}

interface DiskVersion {
  chunkId: string;
  bytes?: Uint8Array;
}

/** Maps items in order, running up to `width` of the calls ahead of the consumer. */
async function* readAhead<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): AsyncGenerator<[T, R]> {
  const inflight: Array<Promise<R>> = [];
  let next = 0;
  for (const item of items) {
    while (inflight.length < width && next < items.length) inflight.push(fn(items[next++]!));
    yield [item, await inflight.shift()!];
  }
}

/** Resolves when the worker is idle; reports reading progress and honours the signal meanwhile. */
async function waitForReading(host: SyncHost, projectId: string, queued: number, options: SyncOptions): Promise<void> {
  const idle = host.worker.whenIdle();
  if (!options.onProgress && !options.signal) return idle;
  let done = false;
  void idle.then(() => {
    done = true;
  });
  let total = queued;
  while (!done) {
    options.signal?.throwIfAborted();
    if (options.onProgress) {
      const counts = await fileStatusCounts(host.db, projectId);
      const pending = counts.queued + counts.reading;
      total = Math.max(total, pending);
      options.onProgress({ phase: "read", done: total - pending, total });
    }
    await pause(idle, READ_POLL_MS, options.signal);
  }
  options.signal?.throwIfAborted();
  options.onProgress?.({ phase: "read", done: total, total });
}

/** Waits `ms`, or less if the worker goes idle or the signal fires. */
function pause(idle: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolvePause) => {
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", finish);
      resolvePause();
    };
    const timer = setTimeout(finish, ms);
    signal?.addEventListener("abort", finish, { once: true });
    void idle.then(finish);
  });
}

/** Drops cache entries of files in scope that the scan no longer found. */
function forgetVanished(cache: SyncCache | undefined, scan: FolderScan, inScope: (path: string) => boolean): void {
  if (!cache) return;
  const found = new Set(scan.files.map((f) => f.path));
  for (const path of cache.keys()) if (inScope(path) && !found.has(path)) cache.delete(path);
}
