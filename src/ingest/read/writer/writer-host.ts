/**
 * The serving thread's side of the writer thread. On a local file the
 * reading worker runs in a thread of its own with its own connection (see
 * writer-thread.ts), so the serving thread's event loop never runs a
 * reading's commit: a cheap read waits for no write. The batches uploads and
 * folder syncs store go to the same thread (`run`, the app's `WriteQueue`),
 * so neither does it run their commits; its own small writes (sessions,
 * rate events) wait for the write lock without blocking it (see WriteTurns). Same surface as the
 * in-process worker (`ReadingWorker`), which memory databases keep: a
 * second connection to `:memory:` would be another database.
 */
import { Worker } from "node:worker_threads";
import type { WriteQueue, WriteRequest } from "../../../core/tools.js";
import { AppError } from "../../../errors.js";
import { log, relayLog } from "../../../logger.js";
import type { Db } from "../../../store/db.js";
import { writeOn } from "../../accept/batch-writes.js";
import { EXT, workerEntryUrl } from "../pool/spawn-reader.js";
import { receivedError } from "./writer-protocol.js";
import type { WriterAnswer, WriterData, WriterRequest } from "./writer-protocol.js";

/** What the rest of the app needs of the reading worker, in-process or in its thread. */
export interface ReadingWorker {
  /** Queues interrupted readings again and starts reading. */
  start(): Promise<void>;
  /** New files were queued. */
  kick(): void;
  /** Resolves once no file is queued or being read. */
  whenIdle(): Promise<void>;
  /** Stops reading; readings under way are given back to the queue. */
  stop(): Promise<void>;
}

/** How long a writer thread that stopped unasked waits before it is started again. */
const RESTART_MS = 1000;

/**
 * Young generation of the writer thread, in MB. V8 grows a thread's new
 * space to 32 MB under the allocation rate of a cold ingest (row arrays,
 * statement arguments), and those pages stay resident: on a vuejs/core cold
 * ingest the writer's heap reached 85 MB for 10–50 MB live. The rows a
 * commit writes are short-lived, so a small young generation costs
 * scavenges, not promotions.
 */
const WRITER_YOUNG_MB = 8;

/** A write posted to the thread, waiting for its answer. */
interface PostedWrite {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class WriterThread implements ReadingWorker, WriteQueue {
  readonly #data: WriterData;
  /** The serving thread's connection: writes run on it in place while no thread runs. */
  readonly #db: Db;
  readonly #writes = new Map<number, PostedWrite>();
  #thread: Worker | undefined;
  #nextId = 0;
  readonly #idle = new Map<number, () => void>();
  #stopping = false;
  #stopped: (() => void) | undefined;

  constructor(data: WriterData, db: Db) {
    this.#data = data;
    this.#db = db;
  }

  async start(): Promise<void> {
    this.#stopping = false;
    const thread = new Worker(workerEntryUrl(new URL(`./writer-thread${EXT}`, import.meta.url)), {
      workerData: this.#data,
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_MB },
      stdout: true,
    });
    thread.stdout.pipe(process.stderr, { end: false });
    this.#thread = thread;
    await new Promise<void>((resolve, reject) => {
      thread.on("message", (answer: WriterAnswer) => {
        if (answer.type === "started") resolve();
        else if (answer.type === "start-failed") reject(new Error(`the writer thread did not start: ${answer.message}`));
        else this.#answer(answer);
      });
      thread.on("error", (err) => {
        log.error("the writer thread failed", { error: err });
        reject(err);
      });
      thread.on("exit", (code) => this.#exited(thread, code));
    });
    // Idle waits asked of a thread that stopped unasked are asked again.
    for (const id of this.#idle.keys()) this.#send({ type: "idle", id });
  }

  kick(): void {
    this.#send({ type: "kick" });
  }

  /** Resolves once the thread has nothing to read (at once without a thread). */
  whenIdle(): Promise<void> {
    if (!this.#thread) return Promise.resolve();
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#idle.set(id, resolve);
      this.#send({ type: "idle", id });
    });
  }

  /**
   * Runs a long write (`batch-writes.ts`) on the thread's connection and
   * resolves once it committed. While no thread runs (not started, stopping,
   * or being started again after it stopped unasked) the write runs in place
   * on the serving connection, as it did before there was a thread: it is
   * never refused for where it runs. A thread that stops with a write under
   * way fails that write (`internal`): whether it committed is unknown, and
   * storing a batch again is harmless (same paths, same bytes).
   */
  run(request: WriteRequest, transfer: readonly ArrayBuffer[] = []): Promise<unknown> {
    const thread = this.#thread;
    if (!thread || this.#stopping) return writeOn(this.#db, request);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#writes.set(id, { resolve, reject });
      const message: WriterRequest = { type: "write", id, request };
      thread.postMessage(message, [...transfer]);
    });
  }

  async stop(): Promise<void> {
    const thread = this.#thread;
    this.#stopping = true;
    if (!thread) return;
    const stopped = new Promise<void>((resolve) => (this.#stopped = resolve));
    this.#send({ type: "stop" });
    await stopped;
    await thread.terminate();
  }

  #send(request: WriterRequest): void {
    this.#thread?.postMessage(request);
  }

  #answer(answer: WriterAnswer): void {
    if (answer.type === "log") relayLog(answer.record);
    else if (answer.type === "idle") {
      this.#idle.get(answer.id)?.();
      this.#idle.delete(answer.id);
    }
    else if (answer.type === "written") this.#written(answer);
    else if (answer.type === "stopped") this.#stopped?.();
  }

  #written(answer: Extract<WriterAnswer, { type: "written" }>): void {
    const posted = this.#writes.get(answer.id);
    this.#writes.delete(answer.id);
    if ("error" in answer) posted?.reject(receivedError(answer.error));
    else posted?.resolve(answer.value);
  }

  /** A thread that ended unasked (a native failure, its heap) is started again; its claims are queued again at start. */
  #exited(thread: Worker, code: number): void {
    if (this.#thread !== thread) return;
    this.#thread = undefined;
    for (const { reject } of this.#writes.values()) reject(new AppError("internal", { cause: new Error(`the writer thread stopped (code ${code}) during a write`) }));
    this.#writes.clear();
    if (this.#stopping) {
      this.#stopped?.();
      for (const resolve of this.#idle.values()) resolve();
      this.#idle.clear();
      return;
    }
    log.error("the writer thread stopped; starting it again", { code });
    setTimeout(() => {
      if (!this.#stopping) this.start().catch((error: unknown) => log.error("the writer thread did not start again", { error }));
    }, RESTART_MS).unref();
  }
}
