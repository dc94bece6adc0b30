import { watch } from "node:fs";
import type { FSWatcher } from "node:fs";
import { join } from "node:path";
import { log } from "../../logger.js";
import { FolderRules, isNeverSynced, RULE_FILES } from "./folder-rules.js";
import { isWithin } from "./folder-scan.js";
import { applyFolder, applyPaths, summarizeSync } from "./folder-sync.js";
import type { SyncCache, SyncChanges, SyncHost, SyncOptions, SyncSummary } from "./folder-sync.js";

const DEBOUNCE_MS = 200;
/** A steady stream of changes is still applied at least this often. */
const MAX_WAIT_MS = 2000;
/**
 * More changed paths than this at once (a checkout, a rebase) are applied
 * as one full pass: cheaper than path by path, and it also catches events
 * the kernel dropped from an overflowing queue.
 */
const FULL_PASS_AT = 500;
const MAX_RETRY_MS = 60_000;

export interface FolderWatchOptions {
  /** Quiet time before changes are applied (default 200 ms). */
  debounceMs?: number;
}

/** A folder kept in step with its project. */
export interface FolderWatch {
  /** The first sync's summary once its files are read; undefined if the watch closed first. */
  readonly firstSync: Promise<SyncSummary | undefined>;
  /** Resolves once no change is waiting or being applied. */
  settled(): Promise<void>;
  /** Stops watching; an apply under way is abandoned between batches. */
  close(): Promise<void>;
}

/**
 * Syncs the folder into the project, then watches it: saved files are read
 * again, deleted ones retired, new folders watched. One `fs.watch` per synced
 * folder, never inside excluded ones: Node 20's recursive mode on Linux walks
 * and watches every file, `node_modules` and `.git` included. Changes are
 * debounced and applied one pass at a time; an editor's temp-file-and-rename
 * save settles to the final file. A failing pass is logged and retried as a
 * full pass with backoff; nothing here throws into the server.
 */
export function watchFolder(host: SyncHost, projectId: string, root: string, options: FolderWatchOptions = {}): FolderWatch {
  const watcher = new FolderWatcher(host, projectId, root, options.debounceMs ?? DEBOUNCE_MS);
  watcher.start();
  return watcher;
}

class FolderWatcher implements FolderWatch {
  readonly firstSync: Promise<SyncSummary | undefined>;
  #resolveFirst!: (summary: SyncSummary | undefined) => void;
  readonly #dirs = new Map<string, FSWatcher>();
  readonly #dirty = new Set<string>();
  readonly #cache: SyncCache = new Map();
  readonly #abort = new AbortController();
  #rules: FolderRules;
  #fullPass = true;
  #first = true;
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #since: number | undefined;
  #running: Promise<void> | undefined;
  #closed = false;
  #limitWarned = false;
  #settledWaiters: Array<() => void> = [];
  /** Ends the project's `scanning` mark: once the first full pass has listed the folder and queued its files. */
  #endScan: () => void = () => undefined;

  constructor(
    private readonly host: SyncHost,
    private readonly projectId: string,
    private readonly root: string,
    private readonly debounceMs: number,
  ) {
    this.#rules = new FolderRules(root);
    this.firstSync = new Promise((resolve) => {
      this.#resolveFirst = resolve;
    });
  }

  start(): void {
    this.#endScan = this.host.tools.scans.begin(this.projectId);
    this.#kick();
  }

  settled(): Promise<void> {
    if (this.#isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.#settledWaiters.push(resolve));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
    for (const w of this.#dirs.values()) w.close();
    this.#dirs.clear();
    await this.#running;
    this.#endScan();
    this.#resolveFirst(undefined);
    this.#wakeSettled();
  }

  #onEvent(dir: string, name: string | null): void {
    if (this.#closed) return;
    const path = name ? (dir === "" ? name : `${dir}/${name}`).replace(/\\/g, "/") : dir;
    if (path === "") {
      this.#fullPass = true;
    } else {
      if (isNeverSynced(path)) return;
      if (RULE_FILES.has(path.slice(path.lastIndexOf("/") + 1))) this.#fullPass = true;
      this.#dirty.add(path);
    }
    this.#since ??= Date.now();
    this.#schedule(Math.min(this.debounceMs, Math.max(0, this.#since + MAX_WAIT_MS - Date.now())));
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#kick(), delayMs);
    this.#timer.unref();
  }

  #kick(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#since = undefined;
    if (this.#closed || this.#running) return;
    this.#running = this.#applyOnce().finally(() => {
      this.#running = undefined;
      if (!this.#closed && this.#hasWork() && !this.#timer) this.#schedule(this.#retryDelay());
      this.#wakeSettled();
    });
  }

  /** Applies what is pending; never rejects. */
  async #applyOnce(): Promise<void> {
    const full = this.#fullPass || this.#dirty.size > FULL_PASS_AT;
    const paths = [...this.#dirty];
    this.#dirty.clear();
    this.#fullPass = false;
    // A folder deleted and made again keeps a dead watcher: start those afresh.
    this.#unwatchWithin(new Set(paths), new Set());
    try {
      if (full) await this.#applyAll();
      else await this.#applyPaths(paths);
      this.#failures = 0;
    } catch (err) {
      if (this.#closed) return;
      this.#failures++;
      this.#fullPass = true;
      log.error("folder sync failed; retrying", { root: this.root, error: err, retryInMs: this.#retryDelay() });
    }
  }

  async #applyAll(): Promise<void> {
    const started = performance.now();
    const seen = new Set<string>();
    const rules = new FolderRules(this.root);
    const changes = await applyFolder(this.host, this.projectId, this.root, this.#syncOptions(rules, seen));
    this.#rules = rules;
    for (const dir of [...this.#dirs.keys()]) if (!seen.has(dir)) this.#unwatch(dir);
    this.#report(changes);
    if (!this.#first) return;
    this.#first = false;
    this.#endScan();
    summarizeSync(this.host, this.projectId, changes, started, { signal: this.#abort.signal }).then(
      (summary) => this.#resolveFirst(summary),
      () => this.#resolveFirst(undefined),
    );
  }

  async #applyPaths(paths: readonly string[]): Promise<void> {
    const seen = new Set<string>();
    const changes = await applyPaths(this.host, this.projectId, this.root, paths, this.#syncOptions(this.#rules, seen));
    this.#unwatchWithin(new Set(paths), seen);
    this.#report(changes);
  }

  #syncOptions(rules: FolderRules, seen: Set<string>): SyncOptions {
    const onDir = (dir: string) => {
      seen.add(dir);
      this.#watchDir(dir);
    };
    return { rules, cache: this.#cache, signal: this.#abort.signal, onDir };
  }

  #watchDir(dir: string): void {
    if (this.#closed || this.#dirs.has(dir)) return;
    try {
      const w = watch(join(this.root, dir), { persistent: false }, (_event, name) => this.#onEvent(dir, name));
      w.on("error", (err) => this.#onWatchError(dir, err));
      this.#dirs.set(dir, w);
    } catch (err) {
      this.#onWatchError(dir, err);
    }
  }

  #onWatchError(dir: string, err: unknown): void {
    this.#unwatch(dir);
    const code = (err as { code?: string }).code;
    if (code === "ENOENT") {
      this.#onEvent(dir, null);
    } else if (code === "ENOSPC" || code === "EMFILE") {
      if (!this.#limitWarned) log.warn("folder watch limit reached: some folders are not watched", { root: this.root, dir, code });
      this.#limitWarned = true;
    } else {
      log.warn("watching a folder failed", { root: this.root, dir, error: err });
    }
  }

  /** Stops watching the folders within these paths that the last walk did not reach. */
  #unwatchWithin(paths: ReadonlySet<string>, seen: ReadonlySet<string>): void {
    for (const dir of [...this.#dirs.keys()]) if (isWithin(dir, paths) && !seen.has(dir)) this.#unwatch(dir);
  }

  #unwatch(dir: string): void {
    this.#dirs.get(dir)?.close();
    this.#dirs.delete(dir);
  }

  #report(changes: SyncChanges): void {
    const { added, changed, retired, refused } = changes;
    if (added + changed + retired > 0) log.info("folder changes applied", { root: this.root, added, changed, retired });
    for (const r of refused) log.warn("file refused", { path: r.path, reason: r.reason });
  }

  #retryDelay(): number {
    return this.#failures === 0 ? this.debounceMs : Math.min(MAX_RETRY_MS, 1000 * 2 ** (this.#failures - 1));
  }

  #hasWork(): boolean {
    return this.#fullPass || this.#dirty.size > 0;
  }

  #isSettled(): boolean {
    return this.#closed || (!this.#running && !this.#timer && !this.#hasWork());
  }

  #wakeSettled(): void {
    if (this.#isSettled()) for (const w of this.#settledWaiters.splice(0)) w();
  }
}
