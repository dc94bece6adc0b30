/**
 * The contract of detached work: a kind of task is a named handler the task
 * worker runs for each queued task of that kind. A handler may be run again
 * after the server was killed mid-run, so what it stores is keyed by the
 * task id (running it twice must leave one result, not two).
 */
import type { Db } from "../store/db.js";
import type { Tools } from "../core/tools.js";

/** One run of a task, as its handler sees it. */
export interface TaskRun {
  readonly taskId: string;
  readonly projectId: string;
  /** Who queued it; the work runs with this user's access. */
  readonly userId: string;
  /** The input queued with the task (JSON). */
  readonly input: unknown;
  readonly db: Db;
  readonly tools: Tools;
  /** Aborted when the task is cancelled or the worker stops: stop soon, store nothing more. */
  readonly signal: AbortSignal;
  /**
   * Reports progress (`done` of `total` steps); also the task's heartbeat,
   * and when the task's cancel flag is read. Rejects with the signal's reason
   * once the run is aborted, so a handler that reports in its loop stops there.
   */
  progress(done: number, total: number): Promise<void>;
}

/** A kind of task: its name (an action name) and its handler. */
export interface TaskKind {
  readonly kind: string;
  /**
   * Does the work and answers the task's `result` (JSON). Throwing fails the
   * task with the error's message (an AppError's message as is; anything
   * else is logged and stored as `internal error`).
   */
  run(task: TaskRun): Promise<unknown>;
}
