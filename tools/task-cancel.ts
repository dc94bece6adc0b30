import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { cancelTask, taskSchema } from "../src/tasks/task-endpoints.js";

/**
 * `task_cancel`: cancels a detached task as `POST /v1/tasks/{taskId}/cancel`
 * does, for an agent that started one over MCP or dispatch — the same
 * states and messages: a queued task ends `cancelled` at once, a running
 * one is answered `running` and ends `cancelled` within about a second, a
 * cancelled one is answered as it is, a finished one is 409 `task already
 * finished`; a task of a project the caller is not a member of is 404 `task
 * not found`. Cancelling needs editor access to the task's project; below
 * it the answer is the dispatch rule's 403 `action not available to an API
 * key`. Declared at viewer level, like `task_status`, because the level that
 * counts is the one in the task's own project, checked by `cancelTask`.
 */
export const taskCancelAction = defineAction({
  name: "task_cancel",
  family: "task",
  version: "1.0.0",
  title: "Cancel a task",
  description:
    "Cancels a detached task (document_ingest, artifact_update, type_refill) by the taskId its action answered: a queued task " +
    "ends cancelled at once; a running one answers status running and ends cancelled within about a second, its work " +
    "stopped and nothing more stored; a task already cancelled is answered as it is; a succeeded or failed one is an error " +
    "(task already finished). Needs editor access to the task's project. Cancelling an MCP call that follows a task (one " +
    'sent with a progress token) cancels the task too. Good call: {"taskId": "tsk_…"}.',
  input: z.object({ taskId: z.string().min(1).max(64) }),
  output: taskSchema,
  access: "viewer",
  readOnly: false,
  run: (input, ctx) => cancelTask(ctx, input.taskId, "action_not_available"),
});
