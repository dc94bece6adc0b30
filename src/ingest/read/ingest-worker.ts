import type { Clock } from "../../core/tools.js";
import type { Db, Queryable } from "../../store/db.js";
import { isSpaceFailure } from "../../store/free-space.js";
import { log } from "../../logger.js";
import { getChunkBytes } from "../../store/files/chunks.js";
import { beginIsolatedRead, claimQueued, dropFileBytes, finishReading, hasQueued, releaseClaims, requeueInterrupted } from "../../store/files/files.js";
import { CredentialRefusal } from "../secrets/secret-verdict.js";
import type { ClaimedFile } from "../../store/files/files.js";
import { drainPasses } from "./derivers/index.js";
import type { DrainPass } from "./derivers/index.js";
import { applyReading } from "./apply-reading.js";
import { BATCH_ROWS, PersistLane, stoppedError } from "./persist-lane.js";
import { ReaderPool } from "./pool/reader-pool.js";
import type { ReaderLimits } from "./pool/reader-pool.js";

/**
 * Files claimed and not yet read (waiting for a thread or in one), at most:
 * enough to keep every thread fed. More are claimed when half are read, so
 * a claim (a commit of its own, an fsync) takes several files at once: with
 * 16, claims were 110 of a cold vuejs/core ingest's 390 commits.
 */
const FEED_PER_THREAD = 32;
/**
 * Files claimed and not finished, at most: readings waiting for their commit
 * count too. Reading goes on while earlier readings are committed (a cold
 * ingest keeps both cores busy), and the readings held in memory are bounded.
 */
const MAX_UNDER_WAY = 64;
/**
 * Rows (factions plus cells) of readings waiting for their commit beyond
 * which no more files are claimed until commits catch up: a few readings of
 * hostile documents can each hold hundreds of thousands of cells, and
 * holding 64 of them grew the main thread's heap past 400 MB.
 */
const MAX_BACKLOG_ROWS = 2 * BATCH_ROWS;

/**
 * The passes after reading (the derivers' `afterDrain`: typing) wait for this much quiet after the
 * last reading: it reads a project's sections whole (about 150 ms on a tree
 * of 10,000 cells), and run after every drained edit it held the store's
 * one lane just when the edit's first query came. Edits in a row share one
 * pass; `whenIdle` runs a waiting pass at once.
 */
const PASS_QUIET_MS = 400;
/** A steady stream of readings still gets its pass this often. */
const PASS_MAX_WAIT_MS = 5000;

/** The first pause of reading after a write found no space; doubled at each failure after, up to SPACE_PAUSE_MAX_MS. */
const SPACE_PAUSE_MS = 1_000;
const SPACE_PAUSE_MAX_MS = 30_000;

/** What the worker needs: the store, the clock, and the reader threads' limits. */
export interface WorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** Reader threads and their limits (from the configuration). */
  readonly reading: ReaderLimits;
  /** Module whose `readers` export the threads run (the product's registry when absent; tests load their own). */
  readonly readersUrl?: string | URL;
  /**
   * Whether this worker may still write (it holds the writer lease), asked
   * inside each claim and each commit of readings: a worker that lost the
   * lease claims nothing and writes none of its readings, which the new
   * holder reads again. Absent: always (one process on the database).
   */
  readonly holds?: (tx: Queryable) => Promise<boolean>;
  /**
   * Whether the database's disk is above the free-space floor
   * (`PKS_MIN_FREE_MB`): below it no file is claimed, so the space left
   * goes to the commits under way. Absent: always.
   */
  readonly room?: () => Promise<boolean>;
}

/**
 * Reads queued files in reader threads (see ReaderPool) and persists each
 * reading on the main thread: `queued → reading → ready | failed`. One file's
 * failure, time-out or heap exhaustion never stops the others or the server.
 * Every claim counts an attempt: a file left `reading` by a stopped process is
 * queued again at start and then read isolated, in a process of its own (see
 * ReaderPool), so a file that stops the server stops it at most once. A reading is persisted only if the file was not replaced meanwhile.
 */
export class IngestWorker {
  readonly #deps: WorkerDeps;
  readonly #pool: ReaderPool;
  /** Readings are written by group commit (see PersistLane). */
  readonly #lane: PersistLane;
  /** Files claimed and not yet read at most (FEED_PER_THREAD per thread). */
  readonly #feed: number;
  /** Claimed files not yet answered by the reader threads. */
  #unread = 0;
  /** Wakes the drain when a reading comes back from a thread (more may be claimed). */
  #answered: (() => void) | undefined;
  #running = false;
  #busy = false;
  #wake: (() => void) | undefined;
  #kicked = false;
  #idleWaiters: Array<() => void> = [];
  #loop: Promise<void> | undefined;
  /** Readings handed to the pool and not yet answered. */
  #inThreads = 0;
  /**
   * The derivers' passes after the queue drains (derivers/index.ts), made
   * for this worker, so for each writer term. They run with the files
   * settled meanwhile (read, failed or refused: their ids by project),
   * before the worker reports idle: passes over what was read (types) see
   * every file settled.
   */
  readonly #passes: readonly DrainPass[] = drainPasses();
  /** Files settled since the last pass, by project. */
  #touched = new Map<string, Set<string>>();
  /** When the oldest settle the pass has not seen happened (performance.now()), if any. */
  #touchedSince: number | undefined;
  /** Ends the quiet wait before a pass (someone waits for idle). */
  #flush: (() => void) | undefined;
  #flushAsked = false;
  /** Claims to give back to the queue once a write succeeds again (their reading's commit found no space). */
  #unreleased: Array<{ fileId: string; chunkId: string; isolatedBegun: boolean }> = [];
  /** Files whose reading alone began (and was counted) in this claim. */
  readonly #isolatedBegun = new Set<string>();
  /** No claim before this (performance.now()): a write found no space. */
  #spaceUntil = 0;
  /** The pause after the last write that found no space (0: none since the last commit). */
  #spacePauseMs = 0;
  /** Whether reading is paused for space (said once in the log, and once when it resumes). */
  #pausedForSpace = false;

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
    this.#pool = new ReaderPool({ ...deps.reading, readersUrl: deps.readersUrl });
    // A batch waits briefly for readings still in a thread (a cold ingest), never when none is (an edit).
    this.#lane = new PersistLane(deps.db, { more: () => this.#inThreads > 0 });
    this.#feed = Math.min(MAX_UNDER_WAY, FEED_PER_THREAD * Math.max(1, deps.reading.threads));
  }

  /** Queues interrupted readings again (their retry is read isolated), fails those interrupted twice alone, and starts the loop. */
  async start(): Promise<void> {
    if (this.#running) return;
    const { requeued, failed } = await this.#deps.db.transaction((tx) => requeueInterrupted(tx, this.#now()));
    if (requeued > 0) log.info("resuming interrupted readings", { files: requeued });
    if (failed > 0) log.warn("readings interrupted twice while read alone are failed", { files: failed });
    this.#lane.open();
    this.#running = true;
    this.#kicked = true;
    this.#loop = this.#run();
  }

  /** Wakes the loop: new files were queued (so a write just found room: a pause for space ends too). */
  kick(): void {
    this.#spaceUntil = 0;
    this.#kicked = true;
    this.#wake?.();
  }

  /** Resolves once no file is queued or being read. */
  whenIdle(): Promise<void> {
    if (!this.#running || (!this.#busy && !this.#kicked)) return Promise.resolve();
    // Someone waits for everything settled: the pass after reading need not wait for quiet.
    this.#flushAsked = true;
    this.#flush?.();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stops reading: readings under way are abandoned and their files queued
   * again, uncounted — those read but still waiting for their commit too
   * (the lane refuses them), so a stop waits for one transaction at most.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#lane.close();
    this.#wake?.();
    this.#flush?.();
    await this.#pool.close();
    await this.#loop;
    for (const w of this.#idleWaiters.splice(0)) w();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#kicked = false;
      this.#busy = true;
      await this.#drain();
      if (await this.#passDue()) await this.#afterDrain();
      if (this.#kicked) continue;
      this.#busy = false;
      this.#flushAsked = false;
      if (!this.#kicked) {
        for (const w of this.#idleWaiters.splice(0)) w();
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          if (this.#kicked || !this.#running) resolve();
        });
        this.#wake = undefined;
      }
    }
  }

  /**
   * Reads until the queue is empty or the worker stops, claiming more files
   * whenever half the claimed ones are read (their commits need not have
   * happened: see MAX_UNDER_WAY).
   */
  async #drain(): Promise<void> {
    const underWay = new Set<Promise<void>>();
    let empty = false;
    while (this.#running) {
      const room = Math.min(this.#feed - this.#unread, MAX_UNDER_WAY - underWay.size);
      const wanted = !empty && this.#unread <= this.#feed / 2 && room > 0 && this.#lane.rowsWaiting() < MAX_BACKLOG_ROWS;
      if (wanted && (await this.#mayClaim())) {
        const files = await this.#claim(underWay.size, room);
        this.#unread += files?.length ?? 0;
        for (const file of files ?? []) {
          const reading: Promise<void> = this.#readOne(file).finally(() => underWay.delete(reading));
          underWay.add(reading);
        }
        empty = files?.length === 0;
        if (files?.length) continue;
      }
      if (underWay.size === 0) {
        if (empty) return;
        await new Promise((r) => setTimeout(r, 250)); // claiming failed or paused for space: try again shortly
        continue;
      }
      const answered = new Promise<void>((resolve) => (this.#answered = resolve));
      await Promise.race([...underWay, answered]);
      this.#answered = undefined;
      empty = false;
    }
    await Promise.allSettled(underWay);
  }

  /** A claimed file's reading came back from its thread (or never went): it no longer counts as unread. */
  #markRead(): void {
    this.#unread--;
    this.#answered?.();
  }

  /**
   * Whether the pass after reading runs now: once files settled and then
   * PASS_QUIET_MS went by with nothing queued (a kick ends the wait: the
   * next drain comes first), at once when someone waits for idle, and in
   * any case once the oldest unseen settle is PASS_MAX_WAIT_MS old.
   */
  async #passDue(): Promise<boolean> {
    if (this.#passes.length === 0 || this.#touched.size === 0 || !this.#running) return false;
    const overdue = () => performance.now() - (this.#touchedSince ?? performance.now()) >= PASS_MAX_WAIT_MS;
    if (this.#kicked) return overdue();
    if (this.#flushAsked || overdue()) return true;
    const wait = Math.min(PASS_QUIET_MS, PASS_MAX_WAIT_MS - (performance.now() - this.#touchedSince!));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      const end = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#flush = end;
      this.#wake = end;
    });
    this.#flush = undefined;
    this.#wake = undefined;
    if (!this.#running) return false;
    return !this.#kicked || this.#flushAsked || overdue();
  }

  async #afterDrain(): Promise<void> {
    if (this.#passes.length === 0 || this.#touched.size === 0 || !this.#running) return;
    const projects = this.#touched;
    this.#touched = new Map();
    this.#touchedSince = undefined;
    this.#flushAsked = false;
    this.#pool.recycleIdle(); // the passes hold this event loop: an idle thread's replacement would wait for them
    for (const pass of this.#passes) {
      try {
        await pass(this.#deps.db, projects, this.#deps.clock);
      } catch (err) {
        log.error("the pass after reading failed", { error: err });
      }
    }
  }

  /** Claims up to `limit` more files, `underWay` being claimed already; undefined when claiming failed. */
  async #claim(underWay: number, limit: number): Promise<ClaimedFile[] | undefined> {
    try {
      // A claim counts an attempt: none is made while no thread could start reading.
      if (underWay === 0) {
        if (!(await hasQueued(this.#deps.db))) return [];
        await this.#pool.whenReady();
        if (!this.#running) return [];
      }
      const { holds } = this.#deps;
      return await this.#deps.db.transaction(async (tx) => (holds && !(await holds(tx)) ? [] : claimQueued(tx, this.#now(), limit)));
    } catch (err) {
      if (isSpaceFailure(err)) this.#pauseForSpace();
      else log.error("claiming files failed", { error: err });
      return undefined;
    }
  }

  /** Reads one claimed file; a failure marks only that file, a stop gives the claim back. */
  async #readOne(file: ClaimedFile): Promise<void> {
    const files = this.#touched.get(file.projectId) ?? new Set<string>();
    this.#touched.set(file.projectId, files.add(file.fileId));
    this.#touchedSince ??= performance.now();
    let unread = true;
    const read = () => {
      if (!unread) return;
      unread = false;
      this.#markRead();
    };
    try {
      // Claimed just as the worker stopped: the closed pool must not start a thread for it.
      if (!this.#running) throw stoppedError();
      await this.#read(file, read);
    } catch (err) {
      read();
      const now = this.#now();
      if (!this.#running) {
        // A worker that lost the lease gives nothing back: the new holder queued its claims again and may be reading them.
        const { holds } = this.#deps;
        await this.#deps.db
          .transaction(async (tx) => (holds && !(await holds(tx)) ? undefined : releaseClaims(tx, [this.#claimOf(file)], now)))
          .catch(() => undefined);
        return;
      }
      if (isSpaceFailure(err)) return this.#giveBack(file);
      const message = err instanceof Error ? err.message.slice(0, 500) : "reading failed";
      if (err instanceof CredentialRefusal) {
        await this.#refuse(file, message, now).catch((error: unknown) =>
          isSpaceFailure(error) ? this.#giveBack(file) : log.error("refusing a file failed", { fileId: file.fileId, error }),
        );
        return;
      }
      log.warn("reading failed", { fileId: file.fileId, path: file.path, error: err });
      await finishReading(this.#deps.db, file.fileId, file.chunkId, { status: "failed", error: message }, now).catch((error: unknown) =>
        isSpaceFailure(error) ? this.#giveBack(file) : undefined,
      );
    } finally {
      this.#isolatedBegun.delete(file.fileId);
    }
  }

  /**
   * A write for this file found no space (its reading's commit, or marking
   * it): the file goes back to the queue, its attempt uncounted — the disk,
   * not the file, failed — and reading pauses with backoff. A file is never
   * `failed` for a full disk, and is read again once space returns.
   */
  async #giveBack(file: ClaimedFile): Promise<void> {
    this.#pauseForSpace();
    this.#unreleased.push(this.#claimOf(file));
    await this.#releaseHeld();
  }

  /** Gives back the held claims; false while that write fails too (they are tried again before the next claim). */
  async #releaseHeld(): Promise<boolean> {
    if (this.#unreleased.length === 0) return true;
    const files = this.#unreleased.splice(0);
    const { holds } = this.#deps;
    try {
      await this.#deps.db.transaction(async (tx) => (holds && !(await holds(tx)) ? undefined : releaseClaims(tx, files, this.#now())));
      return true;
    } catch (err) {
      this.#unreleased.unshift(...files);
      if (isSpaceFailure(err)) this.#pauseForSpace();
      else log.warn("giving claims back failed", { error: err });
      return false;
    }
  }

  /** Pauses claiming after a write found no space: 1 s, then twice as long after each failure, up to 30 s. */
  #pauseForSpace(): void {
    this.#spacePauseMs = Math.min(Math.max(SPACE_PAUSE_MS, this.#spacePauseMs * 2), SPACE_PAUSE_MAX_MS);
    this.#spaceUntil = performance.now() + this.#spacePauseMs;
    if (!this.#pausedForSpace) log.warn("the disk is full: reading pauses, its files stay queued", { retryInMs: this.#spacePauseMs });
    this.#pausedForSpace = true;
  }

  /**
   * Whether more files may be claimed: the held claims are given back, no
   * pause for space runs, and the disk is above the free-space floor.
   */
  async #mayClaim(): Promise<boolean> {
    if (performance.now() < this.#spaceUntil || !(await this.#releaseHeld())) return false;
    const room = (await this.#deps.room?.()) ?? true;
    if (room && this.#pausedForSpace && this.#spacePauseMs === 0) {
      this.#pausedForSpace = false;
      log.info("reading goes on: the disk takes writes again");
    }
    if (!room && !this.#pausedForSpace) {
      this.#pausedForSpace = true;
      log.warn("the disk is below its free-space floor: reading pauses, files stay queued");
    }
    return room;
  }

  /** A reading was committed: the disk has room again, the next failure for space starts the backoff afresh. */
  #committed(): void {
    this.#spacePauseMs = 0;
  }

  /** Reads one file and persists its reading; `read` is called once the thread answered. */
  async #read(file: ClaimedFile, read: () => void): Promise<void> {
    const { db } = this.#deps;
    if (file.readChunkId === file.chunkId) {
      read();
      await finishReading(db, file.fileId, file.chunkId, { status: "ready" }, this.#now());
      return;
    }
    this.#inThreads++;
    // Claimed before without finishing: it may be what stopped the process, so it is read alone.
    const isolated = file.attempts > 1;
    let reading: Awaited<ReturnType<ReaderPool["read"]>>;
    try {
      reading = await this.#pool.read({
        path: file.path,
        contentType: file.contentType,
        includeSecret: file.includeSecret,
        load: async () => {
          // Asked as the reading begins: one alone is counted, and committed, first (see beginIsolatedRead).
          if (isolated) await this.#beginIsolated(file);
          const bytes = await getChunkBytes(db, file.projectId, file.chunkId);
          if (!bytes) throw new Error("the file's bytes are missing");
          return bytes;
        },
      }, { isolated });
    } finally {
      this.#inThreads--;
      read();
      this.#lane.nudge();
    }
    await this.#lane.persist({
      rows: reading.output.factions.length + reading.output.cells.length,
      write: async (tx) => {
        if (this.#deps.holds && !(await this.#deps.holds(tx))) return;
        const now = this.#now();
        // Claim the finish first: if the file was replaced meanwhile, nothing is written.
        if (!(await finishReading(tx, file.fileId, file.chunkId, { status: "ready" }, now))) return;
        await applyReading(tx, { projectId: file.projectId, fileId: file.fileId }, reading, now);
      },
    });
    this.#committed();
  }

  /** Counts the reading alone the file begins, in a commit of its own (nothing, for a worker that lost the lease). */
  async #beginIsolated(file: ClaimedFile): Promise<void> {
    const { holds } = this.#deps;
    await this.#deps.db.transaction(async (tx) => {
      if (holds && !(await holds(tx))) return;
      await beginIsolatedRead(tx, file.fileId, file.chunkId);
    });
    this.#isolatedBegun.add(file.fileId);
  }

  /** A claim to give back: the reading alone it began, if any, is not counted either. */
  #claimOf(file: ClaimedFile): { fileId: string; chunkId: string; isolatedBegun: boolean } {
    return { fileId: file.fileId, chunkId: file.chunkId, isolatedBegun: this.#isolatedBegun.has(file.fileId) };
  }

  /**
   * A file whose bytes or reading look like a credential: failed with the
   * rule and line, any earlier reading retired, and its bytes dropped — in
   * one transaction, and only if the file still holds the bytes read.
   */
  async #refuse(file: ClaimedFile, message: string, now: string): Promise<void> {
    log.warn("reading refused: looks like a credential", { fileId: file.fileId, path: file.path });
    await this.#deps.db.transaction(async (tx) => {
      if (!(await finishReading(tx, file.fileId, file.chunkId, { status: "failed", error: message }, now))) return;
      await applyReading(tx, { projectId: file.projectId, fileId: file.fileId }, { output: { factions: [], cells: [] } }, now);
      await dropFileBytes(tx, file.projectId, file.fileId, file.chunkId, now);
    });
  }

  #now(): string {
    return new Date(this.#deps.clock()).toISOString();
  }
}
