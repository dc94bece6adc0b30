import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACT_TASK, artifactTaskKind } from "../../../src/artifacts/artifact-task.js";
import { CITATION } from "../../../src/artifacts/compose-body.js";
import { newId } from "../../../src/ids.js";
import { artifactOfTask } from "../../../src/store/artifacts/artifacts.js";
import type { TaskRun } from "../../../src/tasks/task-kind.js";
import { actions } from "../../../tools/index.js";
import { fileEntry, ingest } from "../../support/ingest-helpers.js";
import { createTestWorld } from "../../support/test-app.js";
import type { TestWorld } from "../../support/test-app.js";

const DOCS: Array<[string, string]> = [
  ["billing.md", "# Billing\n\nInvoices are issued on the first day of each month. Late invoices incur a fee of 25 euros.\n\n## Contacts\n\nThe billing owner is Dana Reyes. Questions about invoices go to billing@example.com.\n"],
  ["faq.txt", "Refunds are processed within 5 days. Invoices can be downloaded as PDF.\n"],
  ["garden.md", "# Garden\n\nTomatoes need sun. Basil grows well beside tomatoes.\n"],
];

type HandRun = Omit<TaskRun, "scope" | "recheck">;

describe("the artifact_update task kind, run by hand through the pipeline", () => {
  let w: TestWorld;
  const kind = artifactTaskKind();

  /** A TaskRun as the worker would make it, recording progress. */
  /** A task's run as the worker hands it to the pipeline, recording progress; scope and recheck come from the pipeline. */
  const handRun = (input: unknown, over: Partial<HandRun> = {}) => {
    const progress: Array<[number, number]> = [];
    const run: HandRun = {
      taskId: newId("tsk"),
      projectId: w.projectId,
      userId: w.userIds.editor,
      input,
      db: w.app.db,
      tools: w.app.tools,
      signal: new AbortController().signal,
      progress: async (done, total) => {
        progress.push([done, total]);
      },
      ...over,
    };
    return { run, progress };
  };
  /** Runs the kind as the worker does: through the service's pipeline, as the action `artifact_update`. */
  const runKind = (run: HandRun) =>
    w.app.service.runTask({ kind: ARTIFACT_TASK, projectId: run.projectId, userId: run.userId, input: run.input }, (input, ctx, recheck) =>
      kind.run({ ...run, input, scope: ctx.scope, recheck }),
    );
  const artifactCount = async () => Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM artifacts"))!.n);

  beforeAll(async () => {
    w = await createTestWorld({ actions });
    await ingest(w, DOCS.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("builds a cited Markdown artifact from the ranked cells and reports each step", async () => {
    const { run, progress } = handRun({ purpose: "Summarize how invoices are billed" });
    const result = await runKind(run);
    expect(result).toMatchObject({ kind: "summary", title: "Summarize how invoices are billed" });
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const stored = (await artifactOfTask(w.app.db, run.taskId))!;
    expect(stored.artifactId).toBe((result as { artifactId: string }).artifactId);
    expect(stored.artifactId).toMatch(/^art_[0-9A-Za-z]{22}$/);
    expect(stored.body.startsWith("# Summarize how invoices are billed\n")).toBe(true);
    expect(stored.body).toContain("Invoices are issued on the first day of each month.");
    expect(stored.body).not.toContain("Tomatoes");
    const cited = [...stored.body.matchAll(CITATION)].map((m) => m[1]);
    expect(cited).toEqual(stored.citations);
    expect(cited.length).toBeGreaterThan(1);
    const live = await w.app.db.all<{ cell_id: string; text: string }>(
      `SELECT cell_id, text FROM cells WHERE retired_at IS NULL AND cell_id IN (${cited.map(() => "?").join(",")})`,
      cited as string[],
    );
    expect(live).toHaveLength(cited.length);
    // Each claim line is the cited cell's own text.
    for (const c of live) expect(stored.body).toContain(`${c.text} [${c.cell_id}]`);
    expect(stored.corpusVersion).toBe(1);
    expect(stored.stale).toBe(false);
  });

  it("keeps the body within its budget, counted with the one token counter", async () => {
    const { run } = handRun({ purpose: "Report on invoices, refunds and billing contacts", budget: 100 });
    await runKind(run);
    const stored = (await artifactOfTask(w.app.db, run.taskId))!;
    expect(w.app.tools.tokens(stored.body)).toBeLessThanOrEqual(100);
    expect(stored.citations.length).toBeGreaterThan(0);
  });

  it("run twice for the same task (a re-run after a kill) leaves one artifact, with the same id", async () => {
    const before = await artifactCount();
    const { run } = handRun({ purpose: "A memo on late invoice fees", title: "Late fees" });
    const first = (await runKind(run)) as { artifactId: string; kind: string };
    const second = (await runKind(run)) as { artifactId: string; kind: string };
    expect(second.artifactId).toBe(first.artifactId);
    expect(first.kind).toBe("memo");
    expect(await artifactCount()).toBe(before + 1);
    const rows = await w.app.db.all("SELECT artifact_id FROM artifacts WHERE task_id = ?", [run.taskId]);
    expect(rows).toHaveLength(1);
  });

  it("stops at the next step once aborted and stores nothing", async () => {
    const before = await artifactCount();
    const controller = new AbortController();
    const { run, progress } = handRun(
      { purpose: "Everything about invoices" },
      {
        signal: controller.signal,
        progress: async (done, total) => {
          progress.push([done, total]);
          controller.abort(new Error("stopped"));
        },
      },
    );
    await expect(runKind(run)).rejects.toThrow("stopped");
    expect(progress).toEqual([[1, 3]]);
    expect(await artifactOfTask(w.app.db, run.taskId)).toBeUndefined();
    expect(await artifactCount()).toBe(before);
  });

  it("runs with the queuing user's live access: the pipeline refuses a viewer's task (action not available to an API key)", async () => {
    const { run } = handRun({ purpose: "Everything about invoices" }, { userId: w.userIds.viewer });
    await expect(runKind(run)).rejects.toThrow("action not available to an API key");
    expect(await artifactOfTask(w.app.db, run.taskId)).toBeUndefined();
  });

  it("fails a stored input the action's schema refuses, storing nothing", async () => {
    const { run } = handRun({ purpose: "" });
    await expect(runKind(run)).rejects.toThrow("invalid input: purpose");
    expect(await artifactOfTask(w.app.db, run.taskId)).toBeUndefined();
  });
});
