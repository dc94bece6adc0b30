import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { taskInScope, taskSchema, taskView } from "../src/tasks/task-endpoints.js";

/**
 * `task_status`: a detached task as `GET /v1/tasks/{taskId}` answers it, for
 * an agent that started one (`document_ingest`, `artifact_update`,
 * `type_refill`) and polls it over MCP. A task of a project the caller is not
 * a member of answers `task not found`, like an unknown id.
 */
export const taskStatusAction = defineAction({
  name: "task_status",
  family: "task",
  version: "1.0.0",
  title: "Task status",
  description:
    "Reads a detached task by the taskId a detached action answered: status (queued, running, succeeded, failed, " +
    "cancelled), progress {done, total}, and its result or error once it ends. Poll it every second or two until the " +
    "status is final — or call the detached action with a progress token, and the call itself follows the task and ends " +
    "with it. Good call: {\"taskId\": \"tsk_…\"}.",
  input: z.object({ taskId: z.string().min(1).max(64) }),
  output: taskSchema,
  access: "viewer",
  readOnly: true,
  run: async (input, ctx) => taskView((await taskInScope(ctx, input.taskId)).task),
});
