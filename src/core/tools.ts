import type { Queryable } from "../store/db.js";
import type { CursorCodec } from "./cursor.js";

/** Milliseconds since the epoch; injected so tests can drive time. */
export type Clock = () => number;

/** Counts the tokens of a text in the configured tiktoken encoding. */
export type CountTokens = (text: string) => number;

/** Tells the reading worker that files were queued, so it need not wait for its next poll. */
export interface ReadingQueue {
  kick(): void;
}

/** A request for detached work (DECISIONS.md tasks): run later by the task worker, polled by id. */
export interface TaskRequest {
  readonly projectId: string;
  /** The task kind: the name a handler was registered under (an action name, e.g. `artifact_update`). */
  readonly kind: string;
  /** The kind's input, stored as JSON. */
  readonly input: unknown;
  /** Who asked: the task runs with this user's access to the project. */
  readonly userId: string;
}

/** Queues detached work; the task worker is nudged. */
export interface TaskQueue {
  enqueue(request: TaskRequest): Promise<{ taskId: string; status: "queued" }>;
}

/**
 * A write transaction too long for the serving thread's event loop, as
 * plain data: `kind` names the function that runs it (the ingest domain
 * lists them: `src/ingest/accept/batch-writes.ts`), `input` is what it
 * takes. Plain data, because it may cross to the writer thread.
 */
export interface WriteRequest {
  readonly kind: string;
  readonly input: unknown;
}

/**
 * Where the long write transactions of uploads and folder syncs run: on the
 * writer thread's connection when the process has one (a commit there holds
 * no request), else in place on the serving connection (a memory or remote
 * database, a test that drives the clock). Resolves when the transaction
 * committed, with what it answered; rejects with the `AppError` it threw.
 * `transfer` names buffers of the input the caller gives up (moved, not
 * copied, to the thread).
 */
export interface WriteQueue {
  run(request: WriteRequest, transfer?: readonly ArrayBuffer[]): Promise<unknown>;
}

/**
 * The folders this process is making its first pass over, by project:
 * until a folder's first scan has listed it and queued its files, the
 * project's file counts say nothing of what is to come, so answers must
 * not look complete (`indexing` with `total` unknown, the lease `scanning`).
 */
export interface FolderScans {
  /** Marks the project's folder as being scanned; the function returned ends the mark (once). */
  begin(projectId: string): () => void;
  scanning(projectId: string): boolean;
}

/**
 * What a handler is given besides the database and the scope: the small,
 * pure capabilities a domain needs (time, cursors, token counts, a nudge to
 * the reader, storage limits). Wired once in `createApp`; domains take it as their last
 * argument, never the whole application.
 */
export interface Tools {
  readonly clock: Clock;
  readonly cursors: CursorCodec;
  readonly tokens: CountTokens;
  readonly reading: ReadingQueue;
  /**
   * Storage limits: the most bytes one project may hold, the most records a
   * submit key may file a day, and the free-space floor of the database's
   * disk (`assertRoom`: 503 `storage_full` below it), asked by every request
   * that brings bytes in before it takes them.
   */
  readonly storage: { readonly quotaBytes: number; readonly submitDailyMax: number; assertRoom(): Promise<void> };
  /** Detached work (artifact generation, document fetching). */
  readonly tasks: TaskQueue;
  /** Folders whose first scan is under way. */
  readonly scans: FolderScans;
  /** Where uploads and folder syncs commit their bytes (off the serving thread when it can). */
  readonly writes: WriteQueue;
  /**
   * What the long answers (`memory_query`, `code_context_pack`) read
   * through: on a local database file, query threads with connections of
   * their own, so the serving thread answers other requests meanwhile and an
   * answer's independent searches run at once (`src/store/query-threads.ts`);
   * else, and with `PKS_QUERY_THREADS=0`, the database itself.
   */
  readonly queries: Queryable;
}

/** A process's record of the folders being scanned: a count per project, so two watches of one project both hold it. */
export function folderScans(): FolderScans {
  const open = new Map<string, number>();
  return {
    begin(projectId) {
      open.set(projectId, (open.get(projectId) ?? 0) + 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        const left = (open.get(projectId) ?? 1) - 1;
        if (left > 0) open.set(projectId, left);
        else open.delete(projectId);
      };
    },
    scanning: (projectId) => open.has(projectId),
  };
}
