/**
 * The contract of detached work: a kind of task is a named handler the task
 * worker runs for each queued task of that kind. A handler may be run again
 * after the server was killed mid-run, so what it stores is keyed by the
 * task id (running it twice must leave one result, not two).
 */
import type { Db } from "../store/db.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";

/**
 * One run of a task, as its handler sees it. The run went through the one
 * pipeline first (the action of the kind's name, run by the Service): the
 * queuing user's live scope was resolved, the action's tier and level were
 * checked and the input was validated by the action's own schema, so a
 * handler checks none of these again.
 */
export interface TaskRun {
  readonly taskId: string;
  readonly projectId: string;
  /** Who queued it; the work runs with this user's access. */
  readonly userId: string;
  /** The queued input, validated by the action's input schema. */
  readonly input: unknown;
  /** The queuing user's scope in the task's project, resolved for this run. */
  readonly scope: Scope;
  /**
   * The pipeline's scope and level checks again, for work that waits long
   * (a fetch) before it stores anything: rejects as the run itself would
   * have been refused.
   */
  recheck(): Promise<void>;
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

/** A kind of task: its name (the name of the detached action that queues it) and its handler. */
export interface TaskKind {
  readonly kind: string;
  /**
   * Does the work and answers the task's `result` (JSON). Throwing fails the
   * task with the error's message (an AppError's message as is; anything
   * else is logged and stored as `internal error`).
   */
  run(task: TaskRun): Promise<unknown>;
}
