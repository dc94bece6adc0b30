import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";

/** Where a task is in its life: `queued → running → succeeded | failed | cancelled`. */
export type TaskStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** One task as stored, its JSON columns parsed. */
export interface TaskRecord {
  taskId: string;
  projectId: string;
  kind: string;
  input: unknown;
  userId: string;
  status: TaskStatus;
  progress: { done: number; total: number };
  /** The handler's answer, once succeeded (JSON). */
  result: unknown;
  /** The failure's message, once failed. */
  error: string | null;
  /** Claims that did not finish, counting the one under way. */
  attempts: number;
  cancelRequested: boolean;
  heartbeatAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface TaskRow {
  task_id: string;
  project_id: string;
  kind: string;
  input: string;
  user_id: string;
  status: TaskStatus;
  progress_done: number;
  progress_total: number;
  result: string | null;
  error: string | null;
  attempts: number;
  cancel_requested: number;
  heartbeat_at: string | null;
  created_at: string;
  updated_at: string;
}

function toTask(r: TaskRow): TaskRecord {
  return {
    taskId: r.task_id,
    projectId: r.project_id,
    kind: r.kind,
    input: JSON.parse(r.input) as unknown,
    userId: r.user_id,
    status: r.status,
    progress: { done: Number(r.progress_done), total: Number(r.progress_total) },
    result: r.result === null ? undefined : (JSON.parse(r.result) as unknown),
    error: r.error,
    attempts: Number(r.attempts),
    cancelRequested: Number(r.cancel_requested) === 1,
    heartbeatAt: r.heartbeat_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Stores a new queued task; its input is kept as JSON. */
export async function insertTask(
  q: Queryable,
  task: { projectId: string; kind: string; input: unknown; userId: string },
  now: string,
): Promise<TaskRecord> {
  const row = await q.get<TaskRow>(
    `INSERT INTO tasks (task_id, project_id, kind, input, user_id, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'queued', ?, ?) RETURNING *`,
    [newId("tsk"), task.projectId, task.kind, JSON.stringify(task.input ?? null), task.userId, now, now],
  );
  return toTask(row!);
}

/** The task with this id, whatever its project: the caller checks who may see it. */
export async function getTask(q: Queryable, taskId: string): Promise<TaskRecord | undefined> {
  const row = await q.get<TaskRow>("SELECT * FROM tasks WHERE task_id = ?", [taskId]);
  return row && toTask(row);
}

/** The task with this id if it belongs to one of `projectIds` (a scope's lineage). */
export async function getTaskIn(q: Queryable, projectIds: readonly string[], taskId: string): Promise<TaskRecord | undefined> {
  if (projectIds.length === 0) return undefined;
  const row = await q.get<TaskRow>(
    `SELECT * FROM tasks WHERE task_id = ? AND project_id IN (${projectIds.map(() => "?").join(", ")})`,
    [taskId, ...projectIds],
  );
  return row && toTask(row);
}

/**
 * Claims the oldest queued task in the caller's transaction: it becomes
 * `running`, its attempts go up by one and its heartbeat starts. One
 * statement, so two claimants never get the same task.
 */
export async function claimTask(q: Queryable, now: string): Promise<TaskRecord | undefined> {
  const row = await q.get<TaskRow>(
    `UPDATE tasks SET status = 'running', attempts = attempts + 1, heartbeat_at = ?, updated_at = ?
     WHERE task_id = (SELECT task_id FROM tasks WHERE status = 'queued' ORDER BY created_at, task_id LIMIT 1)
     RETURNING *`,
    [now, now],
  );
  return row && toTask(row);
}

/** What a run learns when it reports or polls: whether it should go on. */
export interface RunState {
  /** False once the task is no longer `running` (finished, or queued again). */
  running: boolean;
  cancelRequested: boolean;
}

/**
 * Records a running task's progress, which is also its heartbeat, and
 * answers whether it was asked to stop. Writes nothing once the task left
 * `running`.
 */
export async function recordProgress(q: Queryable, taskId: string, done: number, total: number, now: string): Promise<RunState> {
  const row = await q.get<{ cancel_requested: number }>(
    `UPDATE tasks SET progress_done = ?, progress_total = ?, heartbeat_at = ?, updated_at = ?
     WHERE task_id = ? AND status = 'running' RETURNING cancel_requested`,
    [done, total, now, now, taskId],
  );
  return row ? { running: true, cancelRequested: Number(row.cancel_requested) === 1 } : { running: false, cancelRequested: false };
}

/** Reads a running task's state without writing (the worker's poll between progress reports). */
export async function runState(q: Queryable, taskId: string): Promise<RunState> {
  const row = await q.get<{ status: TaskStatus; cancel_requested: number }>("SELECT status, cancel_requested FROM tasks WHERE task_id = ?", [
    taskId,
  ]);
  return { running: row?.status === "running", cancelRequested: Number(row?.cancel_requested ?? 0) === 1 };
}

/** How a run ended, as the worker records it. */
export type TaskOutcome =
  | { status: "succeeded"; result: unknown }
  | { status: "failed"; error: string }
  | { status: "cancelled" };

/**
 * Finishes a running task. A task asked to cancel ends `cancelled` whatever
 * its run answered; a task no longer `running` (cancelled while queued, or
 * queued again) is left alone, so a late finish writes nothing. Answers the
 * status written, or undefined when nothing was.
 */
export async function finishTask(q: Queryable, taskId: string, outcome: TaskOutcome, now: string): Promise<TaskStatus | undefined> {
  const result = outcome.status === "succeeded" ? JSON.stringify(outcome.result ?? null) : null;
  const error = outcome.status === "failed" ? outcome.error : null;
  const row = await q.get<{ status: TaskStatus }>(
    `UPDATE tasks SET
       status = CASE WHEN cancel_requested = 1 THEN 'cancelled' ELSE ? END,
       result = CASE WHEN cancel_requested = 1 THEN NULL ELSE ? END,
       error = CASE WHEN cancel_requested = 1 THEN NULL ELSE ? END,
       progress_done = CASE WHEN cancel_requested = 0 AND ? = 'succeeded' THEN max(progress_done, progress_total) ELSE progress_done END,
       attempts = 0, heartbeat_at = ?, updated_at = ?
     WHERE task_id = ? AND status = 'running' RETURNING status`,
    [outcome.status, result, error, outcome.status, now, now, taskId],
  );
  return row?.status;
}

/**
 * Asks a task to stop: a queued task is `cancelled` at once, a running one
 * is flagged for its run to notice. Answers the task as it now is, or
 * undefined when it was not queued or running (finished, or unknown).
 */
export async function requestCancel(q: Queryable, taskId: string, now: string): Promise<TaskRecord | undefined> {
  const row = await q.get<TaskRow>(
    `UPDATE tasks SET status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
       cancel_requested = 1, updated_at = ?
     WHERE task_id = ? AND status IN ('queued', 'running') RETURNING *`,
    [now, taskId],
  );
  return row && toTask(row);
}

/**
 * Gives back a claim a stopping worker did not finish: the task is queued
 * again and the claim is not counted, as the task did not stop the process.
 * Nothing happens unless it is still `running`.
 */
export async function releaseTask(q: Queryable, taskId: string, now: string): Promise<boolean> {
  const r = await q.execute(
    `UPDATE tasks SET status = 'queued', attempts = max(attempts - 1, 0), updated_at = ?
     WHERE task_id = ? AND status = 'running'`,
    [now, taskId],
  );
  return r.rowsAffected > 0;
}

/**
 * At start, in the caller's transaction: the tasks left `running` by a
 * stopped process are queued again (they keep their attempts), those asked
 * to cancel end `cancelled`, and those already claimed `maxAttempts` times
 * fail with `error`, so a task that stops the server cannot stop it forever.
 */
export async function requeueInterruptedTasks(
  q: Queryable,
  now: string,
  maxAttempts: number,
  error: string,
): Promise<{ requeued: number; cancelled: number; failed: number }> {
  const cancelled = await q.execute(
    "UPDATE tasks SET status = 'cancelled', attempts = 0, updated_at = ? WHERE status = 'running' AND cancel_requested = 1",
    [now],
  );
  const failed = await q.execute(
    "UPDATE tasks SET status = 'failed', error = ?, attempts = 0, updated_at = ? WHERE status = 'running' AND attempts >= ?",
    [error, now, maxAttempts],
  );
  const requeued = await q.execute("UPDATE tasks SET status = 'queued', updated_at = ? WHERE status = 'running'", [now]);
  return { requeued: requeued.rowsAffected, cancelled: cancelled.rowsAffected, failed: failed.rowsAffected };
}
