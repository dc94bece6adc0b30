import { z } from "zod";
import { defineEndpoint } from "../core/endpoint.js";
import type { AnyEndpoint, RunContext } from "../core/endpoint.js";
import { reaches, resolveScope } from "../core/scope.js";
import type { Scope } from "../core/scope.js";
import { AppError, isAppError } from "../errors.js";
import type { ErrorCode } from "../errors.js";
import { getTask, requestCancel } from "../store/tasks/tasks.js";
import type { TaskRecord } from "../store/tasks/tasks.js";

/** A task as the API answers it: its action (the kind), status, progress, and its result or error once finished. */
export const taskSchema = z.object({
  taskId: z.string(),
  projectId: z.string(),
  action: z.string(),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }),
  result: z.unknown().optional(),
  error: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TaskView = z.infer<typeof taskSchema>;

/** The wire shape of a stored task. */
export function taskView(t: TaskRecord): TaskView {
  return {
    taskId: t.taskId,
    projectId: t.projectId,
    action: t.kind,
    status: t.status,
    progress: t.progress,
    ...(t.status === "succeeded" ? { result: t.result ?? null } : {}),
    ...(t.status === "failed" && t.error !== null ? { error: t.error } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/**
 * The task and the caller's scope in its project. A task's path names no
 * project, so its project comes from the row; a caller who is not a member
 * of it (or whose key is bound elsewhere) gets exactly what an unknown id
 * gets: 404 `task not found`.
 */
export async function taskInScope(ctx: RunContext, taskId: string): Promise<{ task: TaskRecord; scope: Scope }> {
  const task = await getTask(ctx.db, taskId);
  if (!task) throw new AppError("task_not_found");
  try {
    return { task, scope: await resolveScope(ctx.db, ctx.principal, task.projectId) };
  } catch (err) {
    if (isAppError(err) && err.code === "project_not_found") throw new AppError("task_not_found");
    throw err;
  }
}

/**
 * Cancels a task for an editor of its project: a queued task is `cancelled`
 * at once; a running one is flagged, its run aborted within a second, and it
 * ends `cancelled`; a cancelled one is answered as it is; a finished one is
 * 409 `task already finished`. A caller below editor gets `denied`: the
 * REST endpoint's `editor access required`, or for the dispatched action
 * the dispatch rule's `action not available to an API key`.
 */
export async function cancelTask(ctx: RunContext, taskId: string, denied: ErrorCode = "editor_access_required"): Promise<TaskView> {
  const { db } = ctx;
  const { task, scope } = await taskInScope(ctx, taskId);
  if (!reaches(scope.level, "editor")) throw new AppError(denied);
  if (task.status === "cancelled") return taskView(task);
  if (task.status === "succeeded" || task.status === "failed") throw new AppError("task_finished");
  const flagged = await requestCancel(db, taskId, new Date(ctx.tools.clock()).toISOString());
  if (flagged) return taskView(flagged);
  // It finished between the read and the request.
  const now = await getTask(db, taskId);
  if (now?.status === "cancelled") return taskView(now);
  throw new AppError("task_finished");
}

const taskParams = z.object({ params: z.object({ taskId: z.string().max(64) }) });

/**
 * Polling and cancelling detached work. The path names no project: the
 * handlers resolve the caller's scope in the task's own project (see
 * `taskInScope`), so the pipeline admits the caller and leaves the project
 * check to them.
 */
export const taskEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "tasks.get",
    method: "GET",
    path: "/v1/tasks/:taskId",
    summary: "One task: status, progress, and its result or error once finished",
    project: "none",
    access: "none",
    input: taskParams,
    output: taskSchema,
    run: async ({ params }, ctx) => taskView((await taskInScope(ctx, params.taskId)).task),
  }),
  defineEndpoint({
    name: "tasks.cancel",
    method: "POST",
    path: "/v1/tasks/:taskId/cancel",
    summary: "Cancel a queued or running task (editor of its project)",
    project: "none",
    access: "none",
    body: "none",
    input: taskParams,
    output: taskSchema,
    run: ({ params }, ctx) => cancelTask(ctx, params.taskId),
  }),
];
