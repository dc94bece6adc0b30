import { defineAction } from "../src/core/action.js";
import { AppError } from "../src/errors.js";
import { artifactInput, chooseKind, chooseTitle } from "../src/artifacts/artifact-input.js";
import { ARTIFACT_TASK } from "../src/artifacts/artifact-task.js";
import { renderBody } from "../src/artifacts/compose-body.js";
import { DEFAULT_BUDGET, requireBudget } from "../src/retrieve/budget.js";
import { enqueueAs, queuedTaskSchema } from "../src/tasks/detached.js";

const enqueue = enqueueAs(ARTIFACT_TASK);

/**
 * `artifact_update`: queues the build of a Markdown artifact (report, memo
 * or summary) from the project's cells for a purpose. The input is checked
 * here, before anything is queued: a budget below what the body's title and
 * header cost is 400, and `artifactId` (editing an existing artifact) is
 * 403 for every key.
 */
export const artifactUpdateAction = defineAction({
  name: "artifact_update",
  family: "artifact",
  version: "1.0.0",
  title: "Build an artifact",
  description:
    "Queues a task that builds a Markdown artifact (report, memo or summary) for `purpose` from the project's stored claims, with no model: " +
    "claims ranked as memory_query ranks them, grouped under headings by entity and source section, near-duplicates dropped, packed to `budget` " +
    "tokens, each claim followed by its cellId in brackets. Answers {taskId, status: \"queued\"}; the task's result is {artifactId, title, kind}, " +
    "and the artifact is read at GET /v1/projects/{projectId}/artifacts/{artifactId}. Over MCP, a call with a progress token " +
    "stays open until the task ends, reporting its progress; otherwise poll task_status. " +
    'Good call: {"purpose": "Summarize the payment incidents of March for the finance team", "budget": 2000}.',
  input: artifactInput,
  output: queuedTaskSchema,
  access: "editor",
  readOnly: false,
  detached: true,
  async run(req, ctx) {
    if (req.artifactId !== undefined) throw new AppError("action_not_available");
    const kind = chooseKind(req.purpose, req.kind);
    const header = { title: chooseTitle(req.purpose, req.title), purpose: req.purpose, kind };
    requireBudget(req.budget ?? DEFAULT_BUDGET, ctx.tools.tokens(renderBody(header, []).body));
    return enqueue(req, ctx);
  },
});
