/**
 * The reads of retrieval answers on threads of their own. A memory answer on
 * a 4 M-line store runs two dozen statements, the largest scoring every
 * posting of a common word (200 ms for "tests" in one statement): on the
 * serving thread's read connection each such statement held the event loop,
 * so a cheap read arriving meanwhile waited for it, and the answer's
 * independent searches (cells, declarations, files) ran one after another
 * on one core. Here each thread has a read-only connection of its own to the
 * file (a WAL snapshot per statement, as the serving read connection
 * reads), statements go to the thread with the fewest in flight, and the
 * serving thread awaits them like any I/O.
 *
 * Threads start at the first statement (a second only when the first is
 * busy) and are unreferenced, so idle ones keep no process alive; a thread
 * idle for IDLE_MS ends, giving back its heap and page cache. Statements
 * are routed as the serving read connection's are (`readFirst`, db.ts):
 * reads to the threads, anything else (and a read a thread's read-only
 * connection refuses) to the database's own lane, so a caller that writes
 * through this handle by mistake still writes once, in order. Errors are
 * the driver's, mapped at the store boundary as any statement's.
 */
import { Worker } from "node:worker_threads";
import { LibsqlError } from "@libsql/core/api";
import type { InArgs } from "@libsql/core/api";
import { AppError } from "../errors.js";
import { log } from "../logger.js";
import { readFirst } from "./db.js";
import type { Queryable, QueryResult, SqlRow } from "./db.js";

/** What a query thread is started with. */
export interface QueryThreadData {
  /** The database file. */
  readonly path: string;
}

export interface QueryRequest {
  readonly id: number;
  readonly sql: string;
  readonly args: InArgs;
}

export type QueryAnswer =
  | { readonly type: "ready" }
  | { readonly type: "failed"; readonly message: string }
  | { readonly id: number; readonly rows: SqlRow[] }
  | { readonly id: number; readonly error: { readonly message: string; readonly code: string; readonly rawCode?: number | undefined } };

/**
 * A thread with no statement for this long ends: an agent's answers come
 * seconds apart while it works, a thread takes about 100 ms to be ready,
 * and an idle one holds about 20 MB (its heap, its page cache).
 */
const IDLE_MS = 60_000;

/**
 * Young generation of a query thread, in MB, as the other threads have: a
 * thread only copies rows out of the binding and posts them, and V8's
 * default new space for a thread (up to 32 MB) would sit on garbage.
 */
const QUERY_YOUNG_MB = 4;

/** The thread entry beside this module, in the same tree (sources or build). */
export const QUERY_THREAD_ENTRY = new URL(`./query-thread${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);

export interface QueryThreadsOptions {
  /** The database file the threads open. */
  readonly path: string;
  /** Threads at most (each one statement at a time). */
  readonly threads: number;
  /** The entry the threads run: {@link QUERY_THREAD_ENTRY} as the caller can load it (from sources, through a loader). */
  readonly entry: URL;
}

interface Waiting {
  resolve(rows: SqlRow[]): void;
  reject(err: unknown): void;
}

/** One thread and the statements posted to it that it has not answered. */
class QueryThread {
  readonly waiting = new Map<number, Waiting>();
  /** Whether its connection is open: statements go to it only then. */
  ready = false;
  readonly #worker: Worker;
  readonly #onIdle: () => void;
  readonly #onFailed: (message: string) => void;
  readonly #exited: Promise<void>;
  #idle: NodeJS.Timeout | undefined;

  /**
   * `on.idle` runs when the thread has had nothing to do for IDLE_MS,
   * `on.failed` when it could not open the database, `on.exit` when it
   * ends, asked or not.
   */
  constructor(options: QueryThreadsOptions, on: { idle(t: QueryThread): void; failed(t: QueryThread, message: string): void; exit(t: QueryThread, code: number): void }) {
    const workerData: QueryThreadData = { path: options.path };
    this.#onIdle = () => on.idle(this);
    this.#onFailed = (message) => on.failed(this, message);
    this.#worker = new Worker(options.entry, { workerData, resourceLimits: { maxYoungGenerationSizeMb: QUERY_YOUNG_MB }, stdout: true });
    this.#worker.stdout.pipe(process.stderr, { end: false });
    this.#worker.unref();
    this.#worker.on("message", (answer: QueryAnswer) => this.#answered(answer));
    this.#worker.on("error", (error) => log.error("a query thread failed", { error }));
    this.#exited = new Promise((resolve) =>
      this.#worker.on("exit", (code) => {
        clearTimeout(this.#idle);
        on.exit(this, code);
        resolve();
      }),
    );
  }

  post(request: QueryRequest, waiting: Waiting): void {
    clearTimeout(this.#idle);
    this.waiting.set(request.id, waiting);
    if (this.waiting.size === 1) this.#worker.ref();
    this.#worker.postMessage(request);
  }

  #answered(answer: QueryAnswer): void {
    if ("type" in answer) {
      if (answer.type === "failed") return this.#onFailed(answer.message);
      this.ready = true;
      this.#idle = setTimeout(this.#onIdle, IDLE_MS).unref();
      return;
    }
    const waiting = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if ("rows" in answer) waiting?.resolve(answer.rows);
    else waiting?.reject(driverError(answer.error));
    if (this.waiting.size > 0) return;
    this.#worker.unref();
    this.#idle = setTimeout(this.#onIdle, IDLE_MS).unref();
  }

  /** Asks the thread to close its connection and end; resolves when it has ended. */
  end(): Promise<void> {
    clearTimeout(this.#idle);
    this.#worker.postMessage({ type: "close" });
    return this.#exited;
  }
}

/** A thread's error as the driver's own, so it maps as a statement's on the serving connection does. */
function driverError(error: { message: string; code: string; rawCode?: number | undefined }): LibsqlError {
  const prefix = `${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new LibsqlError(message, error.code, undefined, error.rawCode);
}

/** A pool of query threads on one database file; see the module comment. */
export class QueryThreads {
  readonly #options: QueryThreadsOptions;
  readonly #threads: QueryThread[] = [];
  #nextId = 0;
  #closed = false;

  constructor(options: QueryThreadsOptions) {
    if (options.threads < 1) throw new RangeError("a pool of query threads needs at least one thread");
    this.#options = options;
  }

  /** Threads running now (the tests read it). */
  get running(): number {
    return this.#threads.length;
  }

  /**
   * A handle whose reads run on the threads and whose other statements
   * (writes, scripts) go to `fallback`, the database itself. After
   * `close()` every statement goes to `fallback`.
   */
  queryable(fallback: Queryable): Queryable {
    return readFirst({ execute: ({ sql, args }) => this.#run(sql, args, fallback) }, fallback);
  }

  /** Ends every thread, each closing its connection first; statements after this run on the fallback. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.splice(0).map((t) => t.end()));
  }

  /** Threads whose connection is open (the tests read it). */
  get ready(): number {
    return this.#threads.filter((t) => t.ready).length;
  }

  /** A read on a ready thread; on `fallback` while none is ready and after `close()`. */
  async #run(sql: string, args: InArgs, fallback: Queryable): Promise<QueryResult> {
    const thread = this.#closed ? undefined : this.#pick();
    if (!thread) return fallback.execute(sql, args);
    const id = this.#nextId++;
    const rows = await new Promise<SqlRow[]>((resolve, reject) => thread.post({ id, sql, args }, { resolve, reject }));
    return { rows, rowsAffected: 0, lastInsertRowid: undefined };
  }

  /**
   * A ready thread with nothing in flight; else, starting another thread
   * while under the bound, the ready thread with the fewest statements in
   * flight; none while no thread is ready. A thread takes about 100 ms to
   * start (its modules, its connection), longer than most statements: the
   * statements of an answer that comes while none is ready run on the
   * database meanwhile, as they would without threads.
   */
  #pick(): QueryThread | undefined {
    const ready = this.#threads.filter((t) => t.ready);
    const free = ready.find((t) => t.waiting.size === 0);
    if (free) return free;
    if (this.#threads.length < this.#options.threads && this.#threads.every((t) => t.ready)) this.#start();
    return ready.reduce<QueryThread | undefined>((best, t) => (!best || t.waiting.size < best.waiting.size ? t : best), undefined);
  }

  #start(): void {
    const thread = new QueryThread(this.#options, {
      idle: (t) => void this.#retire(t),
      failed: (t, message) => void this.#failed(t, message),
      exit: (t, code) => this.#exited(t, code),
    });
    this.#threads.push(thread);
  }

  async #retire(thread: QueryThread): Promise<void> {
    const at = this.#threads.indexOf(thread);
    if (at < 0 || thread.waiting.size > 0) return;
    this.#threads.splice(at, 1);
    await thread.end();
  }

  /**
   * A thread that could not open the database (it moved, its folder's
   * permissions changed) is not started again: every statement then runs on
   * the database, as without threads, and the log says why once.
   */
  async #failed(thread: QueryThread, message: string): Promise<void> {
    log.error("a query thread could not open the database; answers read on the serving thread", { error: message });
    this.#closed = true;
    await this.#retire(thread);
  }

  /** A thread that ended unasked (its heap, a crash) fails what it held; the next statement starts another. */
  #exited(thread: QueryThread, code: number): void {
    const at = this.#threads.indexOf(thread);
    if (at >= 0) this.#threads.splice(at, 1);
    for (const { reject } of thread.waiting.values()) reject(new AppError("internal", { cause: new Error(`a query thread stopped (code ${code})`) }));
    thread.waiting.clear();
  }
}
