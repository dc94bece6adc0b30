/**
 * Readers run off the main thread, in a pool of worker threads, so no file can
 * stop the server: each thread has a heap limit, each reading a time limit, and
 * a thread that passes either is terminated and replaced while the other files
 * go on. Threads are persistent (a reader's start-up cost, e.g. tree-sitter's
 * WASM, is paid once per thread) and read one file at a time, with the next
 * one already posted (IN_THREAD_FILES).
 *
 * A thread shares the process: what no heap limit covers (native memory of
 * buffers and WASM, an abort in native code) can still stop the server. A
 * file whose reading was interrupted that way is read `isolated` when it is
 * retried: in a process of its own, started for that one file, one such file
 * at a time. If the file stops that process, only the file fails.
 */
import type { ChildProcess } from "node:child_process";
import type { Worker } from "node:worker_threads";
import type { ReadingToApply } from "../apply-reading.js";
import type { ReadOutput } from "../../../readers/reader.js";
import { relayLog } from "../../../logger.js";
import { DEFAULT_READERS_URL, spawnReaderProcess, spawnReaderThread } from "./spawn-reader.js";
import { CredentialRefusal } from "../../secrets/secret-verdict.js";
import type { ThreadAnswer } from "./thread-protocol.js";

/** How many threads, and the limits of each. */
export interface ReaderLimits {
  /** Threads reading at once. */
  readonly threads: number;
  /** Old-generation heap of each thread, in MB. */
  readonly heapMb: number;
  /** Wall-clock limit of one reading, in ms. */
  readonly timeoutMs: number;
  /** Memory a thread may hold after a reading, in MB, before it is replaced (RETIRE_MB when not given). */
  readonly retireMb?: number;
}

export interface ReaderPoolOptions extends ReaderLimits {
  /** Module whose `readers` export the threads run; the product's registry by default (tests load their own). */
  readonly readersUrl?: string | URL;
  /** Bytes and distinct files a thread reads before it is replaced once idle, and how long idle (RECYCLE_BYTES, RECYCLE_FILES, RECYCLE_IDLE_MS). */
  readonly recycleBytes?: number;
  readonly recycleFiles?: number;
  readonly recycleIdleMs?: number;
}

/** What reading a file gives: the reader's output and what the thread worked out beside it (see ReadingToApply). */
export type Reading = ReadingToApply;

/** One file to read. */
export interface ReadTask {
  readonly path: string;
  readonly contentType: string;
  /**
   * Loads the bytes once a thread is free for the file, so files waiting in
   * the pool hold none. Their buffer is transferred to the thread (detached
   * here) when the view spans all of it, else copied.
   */
  load(): Promise<Uint8Array>;
  /** The caller named this path with includeSecret: the credential scan lets it through. */
  readonly includeSecret: boolean;
}

/** How much longer than the pool's limit a reader process lets one reading run on its own watch. */
const OWN_LIMIT_GRACE_MS = 5000;

/** A thread must load its readers within this time, however short the reading limit. */
const STARTUP_LIMIT_MS = 120_000;

/**
 * A thread that has read this many bytes, of at least RECYCLE_FILES distinct
 * files, since it started is replaced by a fresh one once it has been idle
 * for RECYCLE_IDLE_MS. What a cold ingest leaves in a thread stays there
 * while the server serves: its heap grown to the largest files, tree-sitter's
 * WASM memory (which never shrinks), the Markdown parts and spotting memos.
 * After a vuejs/core cold ingest (6.3 MB read) the thread held about 110 MB
 * of the process's RSS; a fresh one with its readers loaded holds about
 * 30 MB (the ingest benchmark's process 3 s after that ingest: 296 → 248 MB,
 * with the other changes of that round). A thread that re-reads a few files
 * as they are edited stays however much it reads, and keeps their Markdown
 * parts: its replacement would read a long document whole again and load the
 * tagger and grammars anew (a few hundred milliseconds on the next edit).
 */
const RECYCLE_BYTES = 4 * 1_048_576;
const RECYCLE_FILES = 64;
const RECYCLE_IDLE_MS = 2_000;

/**
 * A thread that holds more than this many MB after a reading (its heap as
 * committed, plus tree-sitter's WASM memory and buffers, which never shrink
 * while the thread lives) takes no more files: it finishes those it was
 * given and is terminated, and a fresh thread takes its place. Idle
 * replacement (RECYCLE_BYTES) comes only after an ingest, so the largest
 * file of a long cold ingest set the thread's size for the rest of it: on a
 * 1 M-line tree the reader thread held 108–125 MB of heap beside 35 MB of
 * WASM memory (68 MB after one 1.4 MB C file), where a fresh one with its
 * readers loaded holds about 30 MB. On vuejs/core it held at most about
 * 120–140 MB, so it runs there without a replacement; each replacement
 * costs loading the readers again (about a second of CPU, the tagger and
 * grammars compiled anew).
 */
const RETIRE_MB = 160; // the default of PKS_READER_RETIRE_MB (config.ts)

/**
 * Files per thread whose bytes are loaded ahead of their dispatch. Loading
 * waits for the store's lane, which a group commit holds for up to its
 * bound (see persist-lane.ts) and its fsync; most files of a source tree
 * read in a few milliseconds, so with one file ahead a thread idled through
 * most commits (on vuejs/core the reader thread was idle about a third of a
 * cold ingest).
 */
const LOAD_AHEAD_FILES = 4;
/** No more files are loaded ahead once those loaded hold this many bytes (a few large files do not all wait in memory). */
const LOAD_AHEAD_BYTES = 16 * 1024 * 1024;

/**
 * Files posted to a thread at once: the one it reads and the next ones,
 * which it starts as soon as it answers. The pool runs on the writer thread,
 * whose event loop a group commit holds for its whole transaction and fsync
 * (the local store's statements are synchronous, 50–100 ms a batch): with
 * one file per thread, a reader thread's answer waited for the commit before
 * it got its next file, and on a vuejs/core cold ingest the reader thread
 * idled 62 times for 50–100 ms, about 7 s of a 27 s ingest. Most source
 * files read in a few milliseconds, so two in a thread still left 38 such
 * gaps. Past the second, files are posted only while those posted and not
 * answered hold less than IN_THREAD_BYTES (their bytes are the thread's
 * until read). The time limit runs for the file being read only: the next
 * one's starts when the pool learns the previous one ended.
 */
const IN_THREAD_FILES = 8;
const IN_THREAD_BYTES = 2 * 1024 * 1024;

interface Pending {
  readonly task: ReadTask;
  resolve(reading: Reading): void;
  reject(error: Error): void;
  /** The file's bytes, when loaded ahead of its dispatch. */
  loaded?: Promise<Uint8Array> | undefined;
  /** Their length once loaded ahead (0 until then). */
  loadedBytes?: number;
  /** Their length once posted to a thread. */
  postedBytes?: number;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  /** Files given to the thread, in the order posted (at most IN_THREAD_FILES); the first is being read once posted. */
  inThread: Pending[];
  /** How many of `inThread` are posted (the rest wait for their bytes), and their bytes. */
  posted: number;
  postedBytes: number;
  /** Posts go out in order: each waits for the one before. */
  sendTail: Promise<void>;
  timer: NodeJS.Timeout | undefined;
  /** Why the thread stopped, when it reported it before exiting. */
  failure: Error | undefined;
  /** Bytes read since the thread started, and the timer that replaces it once idle (see RECYCLE_BYTES). */
  bytesRead: number;
  /** Distinct paths read since the thread started, counted up to RECYCLE_FILES. */
  paths: Set<string>;
  recycle: NodeJS.Timeout | undefined;
  /** The thread held more than RETIRE_MB after a reading: it takes no more files and ends once it has answered those it has. */
  retiring: boolean;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** The reading a host's answer carries. */
function readingOf(answer: Extract<ThreadAnswer, { type: "done" }>): Reading {
  const { type: _done, ...reading } = answer;
  return reading;
}

/** A buffer the thread can own: the view's whole ArrayBuffer, else a copy. */
function ownedBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
}

/** The pool of reader threads; see the module comment. */
export class ReaderPool {
  readonly #options: Required<ReaderLimits> & { readersUrl: string; recycleBytes: number; recycleFiles: number; recycleIdleMs: number };
  readonly #slots = new Set<Slot>();
  #queue: Pending[] = [];
  #readyWaiters: Array<() => void> = [];
  /** Isolated readings run one after another: this settles when the last one queued has. */
  #isolatedTail: Promise<unknown> = Promise.resolve();
  /** Reader processes alive, so close() can stop them. */
  readonly #processes = new Set<ChildProcess>();
  #closed = false;

  constructor(options: ReaderPoolOptions) {
    this.#options = {
      threads: Math.max(1, Math.floor(options.threads)),
      heapMb: options.heapMb,
      timeoutMs: options.timeoutMs,
      retireMb: options.retireMb ?? RETIRE_MB,
      readersUrl: String(options.readersUrl ?? DEFAULT_READERS_URL),
      recycleBytes: options.recycleBytes ?? RECYCLE_BYTES,
      recycleFiles: options.recycleFiles ?? RECYCLE_FILES,
      recycleIdleMs: options.recycleIdleMs ?? RECYCLE_IDLE_MS,
    };
  }

  /**
   * Reads one file in a thread. Rejects with the reader's error, or with a
   * time-limit or memory-limit error when the reading passed a limit.
   */
  read(task: ReadTask, options: { isolated?: boolean } = {}): Promise<Reading> {
    this.#closed = false;
    if (options.isolated) {
      const reading = this.#isolatedTail.then(() => this.#readIsolated(task));
      this.#isolatedTail = reading.catch(() => undefined);
      return reading;
    }
    return new Promise<Reading>((resolve, reject) => {
      this.#queue.push({ task, resolve, reject });
      this.#pump();
    });
  }

  /**
   * Resolves once a thread has loaded its readers (starting one if none is
   * running), or once starting one failed: a caller that counts each file it
   * hands over as an attempt hands none over while no thread can take it.
   */
  whenReady(): Promise<void> {
    if ([...this.#slots].some((s) => s.ready)) return Promise.resolve();
    if (this.#slots.size === 0) this.#spawn();
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  /**
   * Replaces now every idle thread that would be replaced once idle long
   * enough (see RECYCLE_BYTES). The pool runs on the writer thread, whose
   * event loop the pass after reading holds for seconds: the idle timer
   * could not fire until it ended, so a cold ingest's reader thread (on the
   * 1 M-line tree 99 MB of heap and 35 MB of WASM memory) stayed through the
   * pass, and the two made the process's peak.
   */
  recycleIdle(): void {
    for (const slot of [...this.#slots]) {
      if (slot.recycle === undefined) continue;
      clearTimeout(slot.recycle);
      this.#recycle(slot);
    }
  }

  /** Terminates every thread and fails the readings under way or waiting; a later read starts threads again. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const child of this.#processes) child.kill("SIGKILL");
    const closed = new Error("the reader pool was closed");
    for (const p of this.#queue.splice(0)) p.reject(closed);
    this.#wakeReadyWaiters();
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) {
      this.#release(slot, closed);
      for (const p of slot.inThread.splice(0)) p.reject(closed);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /**
   * Reads one file in a new reader process under the pool's limits (its
   * start-up under the start-up limit, the reading under the time limit) and
   * stops the process afterwards. The process exiting before it answered
   * fails the file with how it ended.
   */
  #readIsolated(task: ReadTask): Promise<Reading> {
    if (this.#closed) return Promise.reject(new Error("the reader pool was closed"));
    const { heapMb, timeoutMs, readersUrl } = this.#options;
    // The process's own limit comes after the pool's, which says why it stopped: it matters only if this server died.
    const child = spawnReaderProcess(readersUrl, heapMb, timeoutMs + OWN_LIMIT_GRACE_MS);
    this.#processes.add(child);
    return new Promise<Reading>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (error: Error | undefined, output?: Reading) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill("SIGKILL");
        if (error) reject(error);
        else resolve(output!);
      };
      const limit = (ms: number, error: Error) => {
        clearTimeout(timer);
        timer = setTimeout(() => settle(error), ms);
      };
      limit(STARTUP_LIMIT_MS, new Error(`the readers did not load within ${seconds(STARTUP_LIMIT_MS)}`));
      child.on("error", (err) => settle(new Error(`the reader process could not run: ${err.message}`)));
      child.on("exit", (code, signal) => {
        this.#processes.delete(child);
        if (this.#closed) settle(new Error("the reader pool was closed"));
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        settle(new Error(`the reading stopped its reader process (${how})`));
      });
      child.on("message", (answer: ThreadAnswer) => {
        if (answer.type === "log") relayLog(answer.record);
        else if (answer.type === "ready") {
          void task.load().then(
            (bytes) => {
              if (settled) return;
              limit(timeoutMs, new Error(`reading exceeded its time limit (${seconds(timeoutMs)})`));
              sendFile(child, task, bytes, settle);
            },
            (err: unknown) => settle(err instanceof Error ? err : new Error(String(err))),
          );
        } else if (answer.type === "done") settle(undefined, readingOf(answer));
        else if (answer.type === "refused") settle(new CredentialRefusal(answer.message));
        else if (answer.type === "failed") settle(new Error(answer.message)); // a process reads one file: what it holds after does not matter
      });
    });
  }

  /**
   * Gives waiting files to threads (up to IN_THREAD_FILES each, idle ones
   * first), and starts threads for files no starting thread will take. The
   * bytes of the next files
   * are loaded ahead (LOAD_AHEAD_FILES per thread, LOAD_AHEAD_BYTES in
   * all): loading waits for the store, which may be busy committing, and a
   * thread that waited for it idled meanwhile.
   */
  #pump(): void {
    for (let depth = 1; depth <= IN_THREAD_FILES; depth++) {
      for (const slot of this.#slots) {
        if (this.#queue.length === 0) break;
        const room = depth <= 2 || slot.postedBytes < IN_THREAD_BYTES;
        if (slot.ready && !slot.retiring && slot.inThread.length < depth && room) this.#dispatch(slot, this.#queue.shift()!);
      }
    }
    let ahead = 0;
    for (const next of this.#queue.slice(0, this.#options.threads * LOAD_AHEAD_FILES)) {
      if (ahead >= LOAD_AHEAD_BYTES) break;
      if (!next.loaded) {
        next.loaded = next.task.load();
        next.loaded.then(
          (bytes) => (next.loadedBytes = bytes.byteLength),
          () => undefined, // its failure is the reading's, reported at dispatch
        );
      }
      ahead += next.loadedBytes ?? 0;
    }
    let starting = [...this.#slots].filter((s) => !s.ready).length;
    let taking = [...this.#slots].filter((s) => !s.retiring).length;
    while (this.#queue.length > starting && taking < this.#options.threads) {
      this.#spawn();
      starting++;
      taking++;
    }
  }

  #spawn(): void {
    const worker = spawnReaderThread(this.#options.readersUrl, this.#options.heapMb);
    const slot: Slot = {
      worker, ready: false, inThread: [], posted: 0, postedBytes: 0, sendTail: Promise.resolve(), timer: undefined, failure: undefined, bytesRead: 0, paths: new Set(), recycle: undefined, retiring: false,
    };
    slot.timer = setTimeout(() => this.#stop(slot, new Error(`the readers did not load within ${seconds(STARTUP_LIMIT_MS)}`)), STARTUP_LIMIT_MS);
    this.#slots.add(slot);
    worker.on("message", (answer: ThreadAnswer) => this.#answer(slot, answer));
    worker.on("error", (err: Error & { code?: string }) => {
      slot.failure =
        err.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new Error(`reading exceeded its memory limit (${this.#options.heapMb} MB)`)
          : new Error(`the reader stopped unexpectedly: ${err.message}`);
    });
    worker.on("exit", (code) => this.#exited(slot, code));
  }

  /** Gives a file to a thread: posted once its bytes are loaded and the files before it are posted. */
  #dispatch(slot: Slot, pending: Pending): void {
    slot.inThread.push(pending);
    clearTimeout(slot.recycle);
    slot.recycle = undefined;
    slot.sendTail = slot.sendTail.then(() => this.#post(slot, pending));
  }

  /** Posts one file to its thread; the time limit starts when it is the one being read. */
  async #post(slot: Slot, pending: Pending): Promise<void> {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = ownedBytes(await (pending.loaded ?? pending.task.load()));
      pending.loaded = undefined;
    } catch (err) {
      // Nothing after it is posted yet (posts go in order), so it leaves the thread's list alone.
      const at = slot.inThread.indexOf(pending);
      if (at >= 0) slot.inThread.splice(at, 1);
      pending.reject(err instanceof Error ? err : new Error(String(err)));
      this.#pump();
      return;
    }
    if (!slot.inThread.includes(pending) || !this.#slots.has(slot)) return; // the pool was closed, or the thread lost, meanwhile
    const { path, contentType, includeSecret } = pending.task;
    slot.bytesRead += bytes.byteLength;
    if (slot.paths.size < this.#options.recycleFiles) slot.paths.add(path);
    pending.postedBytes = bytes.byteLength;
    slot.worker.postMessage({ path, contentType, bytes, includeSecret }, [bytes.buffer]);
    slot.posted++;
    slot.postedBytes += bytes.byteLength;
    if (slot.inThread[0] === pending) this.#startLimit(slot);
  }

  /** The time limit of the file the thread is reading (the first posted). */
  #startLimit(slot: Slot): void {
    const limit = new Error(`reading exceeded its time limit (${seconds(this.#options.timeoutMs)})`);
    slot.timer = setTimeout(() => this.#stop(slot, limit), this.#options.timeoutMs);
  }

  #answer(slot: Slot, answer: ThreadAnswer): void {
    if (answer.type === "log") return relayLog(answer.record);
    if (answer.type === "held") return this.#held(slot, answer.bytes);
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (answer.type === "ready") {
      slot.ready = true;
      this.#wakeReadyWaiters();
    }
    else if (answer.type === "done") this.#finish(slot)?.resolve(readingOf(answer));
    else if (answer.type === "refused") this.#finish(slot)?.reject(new CredentialRefusal(answer.message));
    else this.#finish(slot)?.reject(new Error(answer.message));
    if (slot.posted > 0) this.#startLimit(slot);
    this.#pump();
    if (slot.retiring && slot.inThread.length === 0) return this.#retire(slot);
    const readMuch = slot.bytesRead >= this.#options.recycleBytes && slot.paths.size >= this.#options.recycleFiles;
    if (slot.ready && slot.inThread.length === 0 && readMuch && this.#slots.has(slot)) {
      clearTimeout(slot.recycle);
      slot.recycle = setTimeout(() => this.#recycle(slot), this.#options.recycleIdleMs);
      slot.recycle.unref();
    }
  }

  /**
   * A thread past RETIRE_MB takes no more files, and one that takes its
   * place starts now, so it has loaded its readers when the old one ends.
   */
  #held(slot: Slot, bytes: number): void {
    if (slot.retiring || bytes < this.#options.retireMb * 1_048_576 || !this.#slots.has(slot)) return;
    slot.retiring = true;
    if (slot.inThread.length === 0) this.#retire(slot);
    else this.#pump();
  }

  /** Ends a retiring thread that has answered every file it was given, and lets a fresh one take its files. */
  #retire(slot: Slot): void {
    if (!this.#slots.delete(slot)) return;
    this.#release(slot, new Error("the reader thread was replaced"));
    void slot.worker.terminate();
    this.#pump();
  }

  /** Replaces a thread that read much and is idle by a fresh one (see RECYCLE_BYTES). */
  #recycle(slot: Slot): void {
    slot.recycle = undefined;
    if (this.#closed || slot.inThread.length > 0 || !this.#slots.delete(slot)) return;
    void slot.worker.terminate();
    this.#spawn();
  }

  /** Detaches the reading the thread answered (the first posted), if any, and returns it. */
  #finish(slot: Slot): Pending | undefined {
    if (slot.posted === 0) return undefined;
    slot.posted--;
    const pending = slot.inThread.shift();
    slot.postedBytes -= pending?.postedBytes ?? 0;
    return pending;
  }

  #release(slot: Slot, error: Error): void {
    clearTimeout(slot.recycle);
    slot.recycle = undefined;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    this.#finish(slot)?.reject(error);
  }

  /** A limit passed: the reading fails with `error`, the thread is terminated, and another replaces it. */
  #stop(slot: Slot, error: Error): void {
    if (!this.#slots.delete(slot)) return;
    slot.failure = error;
    this.#lost(slot, error);
    void slot.worker.terminate();
    this.#pump();
  }

  #exited(slot: Slot, code: number): void {
    if (!this.#slots.delete(slot)) return; // stopped or closed already
    this.#lost(slot, slot.failure ?? new Error(`the reader stopped unexpectedly (exit code ${code})`));
    this.#pump();
  }

  /**
   * Fails what a lost thread held: its reading, or, when it died before its
   * readers loaded and no other thread has loaded them, the first waiting
   * file (so a broken reader list fails files instead of restarting threads
   * forever). The files given to it after the one it was reading go back to
   * the front of the queue, their bytes to be loaded again (a posted file's
   * were transferred).
   */
  #lost(slot: Slot, error: Error): void {
    if (slot.posted > 0) {
      this.#release(slot, error);
      this.#requeue(slot);
      return;
    }
    this.#requeue(slot);
    clearTimeout(slot.timer);
    if (slot.ready || [...this.#slots].some((s) => s.ready)) return;
    this.#queue.shift()?.reject(new Error(`the readers could not be loaded: ${error.message}`));
    this.#wakeReadyWaiters();
  }

  /** Puts the files a thread was given, and not reading, back at the front of the queue. */
  #requeue(slot: Slot): void {
    const back = slot.inThread.splice(0);
    slot.posted = 0;
    slot.postedBytes = 0;
    for (const p of back) p.loaded = undefined;
    this.#queue.unshift(...back);
  }

  #wakeReadyWaiters(): void {
    for (const wake of this.#readyWaiters.splice(0)) wake();
  }
}

/**
 * Gives a reader process that said ready its file. The process may have
 * gone since: the channel's error fails the file (its exit is handled too).
 */
function sendFile(child: ChildProcess, task: ReadTask, bytes: Uint8Array, fail: (error: Error) => void): void {
  const { path, contentType, includeSecret } = task;
  const sent = (err: Error | null) => {
    if (err) fail(new Error(`the reader process could not be given the file: ${err.message}`));
  };
  try {
    child.send({ path, contentType, bytes, includeSecret }, sent);
  } catch (err) {
    sent(err instanceof Error ? err : new Error(String(err)));
  }
}
