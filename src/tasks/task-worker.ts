import type { RunContext } from "../core/endpoint.js";
import type { Clock, TaskQueue, TaskRequest } from "../core/tools.js";
import { isAppError } from "../errors.js";
import { log } from "../logger.js";
import type { Db } from "../store/db.js";
import {
  claimTask,
  finishTask,
  insertTask,
  recordProgress,
  releaseTask,
  requeueInterruptedTasks,
  runState,
} from "../store/tasks/tasks.js";
import type { RunState, TaskOutcome, TaskRecord } from "../store/tasks/tasks.js";
import type { TaskKind } from "./task-kind.js";

/** Claims of one task that never finished after which it fails instead of running again. */
export const MAX_TASK_ATTEMPTS = 3;
/** The error of a task that stopped the server `MAX_TASK_ATTEMPTS` times. */
export const INTERRUPTED_ERROR = `the task was interrupted ${MAX_TASK_ATTEMPTS} times`;
/** The error of a task whose kind no handler is registered for. */
export const UNKNOWN_KIND_ERROR = "unknown task kind";
/** The error stored for a failure that is not an AppError (the failure itself is logged). */
export const INTERNAL_ERROR = "internal error";

/** What the worker needs besides its kinds. */
export interface TaskWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  /**
   * Runs a task through the one pipeline (the Service's `runTask`): the
   * action of the task's kind, its scope, level and input checks, then
   * `handler`. Injected because the pipeline sits above the domains (and is
   * made after the tools that hold this worker).
   */
  readonly pipeline: (task: TaskRequest, handler: (input: unknown, ctx: RunContext, recheck: () => Promise<void>) => Promise<unknown>) => Promise<unknown>;
  /** Tasks run at once, at most (default 2): handlers wait on I/O, not on the CPU. */
  readonly concurrency?: number;
  /** How often a running task's cancel flag is read between its progress reports (default 1 s). */
  readonly pollMs?: number;
  /** How long `stop` waits for runs to notice their abort before giving their claims back anyway (default 5 s). */
  readonly stopGraceMs?: number;
}

/** Why a run's signal was aborted. */
type AbortCause = "cancel" | "stop" | "lost";

interface ActiveRun {
  readonly task: TaskRecord;
  readonly controller: AbortController;
  cause: AbortCause | undefined;
  done: Promise<void>;
}

/**
 * Runs detached work: claims the oldest queued task in a write transaction
 * (so no task runs twice at once), runs its kind's handler on the main
 * thread, at most `concurrency` at a time, and records the outcome:
 * `queued → running → succeeded | failed | cancelled`. Each run has an
 * AbortSignal, aborted when the task is asked to cancel (seen on each
 * progress report and by a poll every `pollMs`) or when the worker stops. A
 * run the worker stops is queued again, uncounted; a task left `running` by
 * a killed process is queued again at start and run again, so handlers key
 * what they store by the task id.
 */
export class TaskWorker implements TaskQueue {
  readonly #kinds: ReadonlyMap<string, TaskKind>;
  readonly #deps: TaskWorkerDeps;
  readonly #concurrency: number;
  readonly #active = new Map<string, ActiveRun>();
  #running = false;
  #kicked = false;
  #idle = false;
  #wake: (() => void) | undefined;
  #idleWaiters: Array<() => void> = [];
  #loop: Promise<void> | undefined;

  constructor(kinds: readonly TaskKind[], deps: TaskWorkerDeps) {
    const registry = new Map<string, TaskKind>();
    for (const k of kinds) {
      if (registry.has(k.kind)) throw new Error(`task kind "${k.kind}" is registered twice`);
      registry.set(k.kind, k);
    }
    this.#kinds = registry;
    this.#deps = deps;
    this.#concurrency = Math.max(1, deps.concurrency ?? 2);
  }

  /** The kinds this worker runs, by name. */
  get kinds(): readonly string[] {
    return [...this.#kinds.keys()];
  }

  /**
   * Queues a task and nudges the worker. A kind no handler is registered for
   * is a programming error, refused here rather than failed later.
   */
  async enqueue(request: TaskRequest): Promise<{ taskId: string; status: "queued" }> {
    if (!this.#kinds.has(request.kind)) throw new Error(`no task kind "${request.kind}" is registered`);
    const task = await insertTask(this.#deps.db, request, this.#now());
    this.kick();
    return { taskId: task.taskId, status: "queued" };
  }

  /** Queues again the tasks a stopped process left running, then starts claiming. */
  async start(): Promise<void> {
    if (this.#running) return;
    const settled = await this.#deps.db.transaction((tx) => requeueInterruptedTasks(tx, this.#now(), MAX_TASK_ATTEMPTS, INTERRUPTED_ERROR));
    if (settled.requeued + settled.cancelled + settled.failed > 0) log.info("resuming interrupted tasks", settled);
    this.#running = true;
    this.#kicked = true;
    this.#idle = false;
    this.#loop = this.#run();
  }

  /** Wakes the loop: a task was queued or a run ended. */
  kick(): void {
    this.#kicked = true;
    this.#idle = false;
    this.#wake?.();
  }

  /** Resolves once no task is queued or running (at once when the worker is not started). */
  whenIdle(): Promise<void> {
    if (!this.#running || this.#idle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Stops claiming and aborts every run. Runs that end within the grace are
   * queued again (or cancelled, if asked); claims of runs still going after
   * it are given back anyway, and their late finish writes nothing.
   */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    for (const run of this.#active.values()) this.#abort(run, "stop");
    this.#wake?.();
    await this.#loop;
    const runs = [...this.#active.values()];
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#deps.stopGraceMs ?? 5000);
    });
    await Promise.race([Promise.allSettled(runs.map((r) => r.done)), grace]);
    clearTimeout(timer);
    for (const run of this.#active.values()) {
      log.warn("a task did not stop in time; its claim is given back", { taskId: run.task.taskId, kind: run.task.kind });
      await releaseTask(this.#deps.db, run.task.taskId, this.#now()).catch(() => undefined);
    }
    for (const w of this.#idleWaiters.splice(0)) w();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#kicked = false;
      while (this.#running && this.#active.size < this.#concurrency) {
        const claimed = await this.#claim();
        if (claimed === null) break;
        if (claimed === undefined) {
          // Claiming failed (logged): try again shortly rather than report idle.
          await new Promise((r) => setTimeout(r, 1000));
          this.#kicked = true;
          break;
        }
        if (!this.#running) {
          await releaseTask(this.#deps.db, claimed.taskId, this.#now()).catch(() => undefined);
          break;
        }
        this.#launch(claimed);
      }
      if (!this.#running) break;
      if (this.#kicked) continue;
      if (this.#active.size === 0) {
        this.#idle = true;
        for (const w of this.#idleWaiters.splice(0)) w();
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (this.#kicked || !this.#running) resolve();
      });
      this.#wake = undefined;
    }
  }

  /** The next task, null when none is queued, undefined when claiming failed. */
  async #claim(): Promise<TaskRecord | null | undefined> {
    try {
      return (await this.#deps.db.transaction((tx) => claimTask(tx, this.#now()))) ?? null;
    } catch (err) {
      log.error("claiming a task failed", { error: err });
      return undefined;
    }
  }

  #launch(task: TaskRecord): void {
    const run: ActiveRun = { task, controller: new AbortController(), cause: undefined, done: Promise.resolve() };
    this.#active.set(task.taskId, run);
    run.done = this.#execute(run)
      .catch((error: unknown) => log.error("recording a task's outcome failed", { taskId: task.taskId, error }))
      .finally(() => {
        this.#active.delete(task.taskId);
        this.kick();
      });
  }

  async #execute(run: ActiveRun): Promise<void> {
    const { task } = run;
    const { db } = this.#deps;
    const kind = this.#kinds.get(task.kind);
    if (!kind) {
      await finishTask(db, task.taskId, { status: "failed", error: UNKNOWN_KIND_ERROR }, this.#now());
      return;
    }
    const outcome = await this.#outcome(run, kind);
    const now = this.#now();
    switch (run.cause) {
      case "stop":
        await releaseTask(db, task.taskId, now);
        return;
      case "lost":
        return;
      case "cancel":
        await finishTask(db, task.taskId, { status: "cancelled" }, now);
        return;
      default:
        await finishTask(db, task.taskId, outcome, now);
    }
  }

  /** Runs the task's kind through the pipeline, polling its stored state meanwhile (a cancel or a lost claim aborts it). */
  async #outcome(run: ActiveRun, kind: TaskKind): Promise<TaskOutcome> {
    const { task, controller } = run;
    const { db } = this.#deps;
    const poll = setInterval(() => {
      runState(db, task.taskId).then(
        (state) => this.#apply(run, state),
        (error: unknown) => log.warn("reading a task's state failed", { taskId: task.taskId, error }),
      );
    }, this.#deps.pollMs ?? 1000);
    poll.unref();
    try {
      const result = await this.#deps.pipeline(task, (input, ctx, recheck) =>
        kind.run({
          taskId: task.taskId,
          projectId: task.projectId,
          userId: task.userId,
          input,
          scope: ctx.scope,
          recheck,
          db: ctx.db,
          tools: ctx.tools,
          signal: controller.signal,
          progress: (done, total) => this.#progress(run, done, total),
        }),
      );
      JSON.stringify(result ?? null); // a result that cannot be stored fails the task, below
      return { status: "succeeded", result };
    } catch (err) {
      return { status: "failed", error: run.cause ? INTERNAL_ERROR : this.#failure(task, err) };
    } finally {
      clearInterval(poll);
    }
  }

  /** A progress report: stored as progress and heartbeat; rejects once the run is aborted. */
  async #progress(run: ActiveRun, done: number, total: number): Promise<void> {
    const { signal } = run.controller;
    if (signal.aborted) throw signal.reason;
    const state = await recordProgress(this.#deps.db, run.task.taskId, count(done), count(total), this.#now());
    this.#apply(run, state);
    if (signal.aborted) throw signal.reason;
  }

  #apply(run: ActiveRun, state: RunState): void {
    if (state.cancelRequested) this.#abort(run, "cancel");
    else if (!state.running) this.#abort(run, "lost");
  }

  #abort(run: ActiveRun, cause: AbortCause): void {
    if (run.controller.signal.aborted) return;
    run.cause = cause;
    const why = cause === "cancel" ? "the task was cancelled" : cause === "stop" ? "the task worker stopped" : "the task is no longer running here";
    run.controller.abort(new DOMException(why, "AbortError"));
  }

  /** The message stored for a handler's failure: an AppError's own, anything else logged and hidden. */
  #failure(task: TaskRecord, err: unknown): string {
    if (isAppError(err)) return err.message;
    log.error("task failed", { taskId: task.taskId, kind: task.kind, error: err });
    return INTERNAL_ERROR;
  }

  #now(): string {
    return new Date(this.#deps.clock()).toISOString();
  }
}

/** A progress figure as stored: a whole number, at least 0. */
function count(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}
