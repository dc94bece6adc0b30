import { z } from "zod";
import type { RunContext } from "../core/endpoint.js";

/** What a detached action answers: the task to poll with `GET /v1/tasks/{taskId}`. */
export const queuedTaskSchema = z.object({ taskId: z.string(), status: z.literal("queued") });

/**
 * The `run` of an action declared `detached: true`: queues a task of `kind`
 * (a registered TaskKind, usually named like the action) with the validated
 * input, for the caller in the call's project, and answers
 * `{taskId, status: "queued"}`. Dispatch wraps it as any other answer
 * (`{action, result: {taskId, status}}`), so nothing in the pipeline knows
 * about tasks; the scope, tier and level checks ran before.
 */
export function enqueueAs(kind: string): (input: unknown, ctx: RunContext) => Promise<{ taskId: string; status: "queued" }> {
  return (input, ctx) => ctx.tools.tasks.enqueue({ projectId: ctx.scope.projectId, kind, input, userId: ctx.principal.userId });
}
