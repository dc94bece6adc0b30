/**
 * The `artifact_update` task: builds the artifact the action queued and
 * stores it under the task's id, so a run repeated after a kill rewrites
 * the same artifact instead of adding a second.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { newId } from "../ids.js";
import { liveCellIds, upsertArtifact } from "../store/artifacts/artifacts.js";
import type { TaskKind, TaskRun } from "../tasks/task-kind.js";
import { chooseKind, chooseTitle } from "./artifact-input.js";
import type { ArtifactInput } from "./artifact-input.js";
import { DEFAULT_BUDGET } from "../retrieve/budget.js";
import { composeBody, selectClaims } from "./build-artifact.js";
import type { Composition } from "./build-artifact.js";

/** The task kind's name: the action that queues it. */
export const ARTIFACT_TASK = "artifact_update";

/** What the task answers when it succeeds. */
export interface ArtifactTaskResult {
  artifactId: string;
  title: string;
  kind: string;
}

export interface ArtifactTaskOptions {
  /**
   * Test knob: a pause after each step, in milliseconds (0 by default). A
   * build takes a few milliseconds, too short for a test to kill the process
   * while one runs; the pause widens that window and nothing else.
   */
  readonly stepDelayMs?: number;
}

/** Steps reported as progress: rank and select the claims, compose the body, store it. */
const STEPS = 3;

/**
 * The handler of `artifact_update` tasks, run by the pipeline as the action
 * (the queuing user's live access and the action's input schema checked
 * there). It reports progress after each step and stops between steps once
 * the task is aborted, storing nothing.
 */
export function artifactTaskKind(options: ArtifactTaskOptions = {}): TaskKind {
  const pause = options.stepDelayMs ?? 0;
  return {
    kind: ARTIFACT_TASK,
    async run(task: TaskRun): Promise<ArtifactTaskResult> {
      const input = task.input as ArtifactInput;
      const kind = chooseKind(input.purpose, input.kind);
      const composition: Composition = {
        title: chooseTitle(input.purpose, input.title),
        purpose: input.purpose,
        kind,
        budget: input.budget ?? DEFAULT_BUDGET,
      };
      const step = async (done: number) => {
        await task.progress(done, STEPS);
        if (pause > 0) await sleep(pause, undefined, { signal: task.signal });
        task.signal.throwIfAborted();
      };

      task.signal.throwIfAborted();
      const selection = await selectClaims(task.db, task.projectId, input.purpose);
      await step(1);
      const body = composeBody(composition, selection.claims, task.tools);
      await step(2);

      const artifactId = await storeArtifact(task, composition, selection, body);
      await task.progress(STEPS, STEPS);
      return { artifactId, title: composition.title, kind };
    },
  };
}

/**
 * Stores the composed artifact under the task's id. A file re-read since
 * the ranking may have retired a chosen cell: the body is then composed
 * again, inside the transaction, from the claims still live.
 */
async function storeArtifact(
  task: TaskRun,
  composition: Composition,
  selection: Awaited<ReturnType<typeof selectClaims>>,
  composed: ReturnType<typeof composeBody>,
): Promise<string> {
  const input = task.input as ArtifactInput;
  return task.db.transaction(async (tx) => {
    let body = composed;
    const live = await liveCellIds(tx, body.citations);
    if (live.size < new Set(body.citations).size) {
      const stillLive = await liveCellIds(tx, selection.claims.map((c) => c.cellId));
      body = composeBody(composition, selection.claims.filter((c) => stillLive.has(c.cellId)), task.tools);
    }
    task.signal.throwIfAborted();
    return upsertArtifact(tx, {
      artifactId: newId("art"),
      projectId: task.projectId,
      taskId: task.taskId,
      kind: composition.kind,
      title: composition.title,
      purpose: input.purpose,
      body: body.body,
      citations: body.citations,
      corpusVersion: selection.corpusVersion,
      now: new Date(task.tools.clock()).toISOString(),
    });
  });
}
