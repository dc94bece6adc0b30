/**
 * Detached tasks on a file database: the worker's life cycle
 * (`queued → running → succeeded | failed | cancelled`), progress, cancel,
 * access through the task's own project, dispatch of a detached action, and
 * what a stop or a killed process leaves behind. The kinds are defined here:
 * each waits on a gate the test opens, so every state can be observed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../src/app.js";
import type { App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { defineAction } from "../../src/core/action.js";
import { AppError } from "../../src/errors.js";
import { removeMembership, setMembership } from "../../src/store/access/memberships.js";
import { insertTask } from "../../src/store/tasks/tasks.js";
import { actions as productActions } from "../../tools/index.js";
import { taskCancelAction } from "../../tools/task-cancel.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { enqueueAs, queuedTaskSchema } from "../../src/tasks/detached.js";
import type { TaskView } from "../../src/tasks/task-endpoints.js";
import type { TaskKind, TaskRun } from "../../src/tasks/task-kind.js";
import { INTERRUPTED_ERROR } from "../../src/tasks/task-worker.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { testActions } from "../support/test-catalog.js";
import { until } from "../support/until.js";

const TASK_NOT_FOUND = '{"error":{"status":404,"code":"task_not_found","message":"task not found"}}';
const EDITOR_DENIED = '{"error":{"status":403,"code":"editor_access_required","message":"editor access required"}}';
const SUBMIT_DENIED = '{"error":{"status":403,"code":"action_not_available","message":"action not available to an API key"}}';
const FINISHED = '{"error":{"status":409,"code":"task_finished","message":"task already finished"}}';

/** Gates the `gated` kind waits on, by name: the test decides when a run may end. */
class Gates {
  readonly #open = new Map<string, { promise: Promise<unknown>; resolve: (v: unknown) => void }>();
  #get(name: string) {
    let gate = this.#open.get(name);
    if (!gate) {
      let resolve!: (v: unknown) => void;
      const promise = new Promise<unknown>((r) => (resolve = r));
      gate = { promise, resolve };
      this.#open.set(name, gate);
    }
    return gate;
  }
  wait(name: string): Promise<unknown> {
    return this.#get(name).promise;
  }
  open(name: string, value: unknown = null): void {
    this.#get(name).resolve(value);
  }
  reset(): void {
    this.#open.clear();
  }
}

/** What the test kinds saw: each run's task id, and the runs that saw their signal aborted. */
const seen = { runs: [] as string[], aborted: [] as string[] };
const gates = new Gates();

/** Waits for the gate named by `input.gate`, reporting progress 1 of 3 first; ends early when aborted. */
const gated: TaskKind = {
  kind: "test_gated",
  async run(task: TaskRun) {
    seen.runs.push(task.taskId);
    const { gate } = task.input as { gate: string };
    await task.progress(1, 3);
    const aborted = new Promise<never>((_, reject) => {
      const stop = () => {
        seen.aborted.push(task.taskId);
        reject(task.signal.reason);
      };
      if (task.signal.aborted) stop();
      else task.signal.addEventListener("abort", stop, { once: true });
    });
    const value = await Promise.race([gates.wait(gate), aborted]);
    return { gate, value };
  },
};

/** Fails with an AppError (its message is the task's error) or a plain Error (stored as `internal error`). */
const failing: TaskKind = {
  kind: "test_failing",
  async run(task) {
    seen.runs.push(task.taskId);
    if ((task.input as { plain?: boolean }).plain) throw new Error("SQLITE_ERROR near SELECT at /secret/path");
    throw new AppError("conflict", { message: "the draft moved under the task" });
  },
};

/** Writes one row keyed by its task id (the idempotent handler a re-run needs), then succeeds. */
const keyed: TaskKind = {
  kind: "test_keyed",
  async run(task) {
    seen.runs.push(task.taskId);
    await task.db.execute("INSERT INTO settings (key, value) VALUES (?, 'done') ON CONFLICT (key) DO UPDATE SET value = 'done'", [
      `task-test:${task.taskId}`,
    ]);
    return { wrote: task.taskId };
  },
};

/** A detached action: its run queues the task of the same name and answers `{taskId, status}`; the task's run goes through it. */
const detached = (name: string, input: z.ZodObject) =>
  defineAction({
    name,
    family: "test",
    version: "1.0.0",
    title: name,
    description: `Queues a ${name} task.`,
    input,
    output: queuedTaskSchema,
    access: "editor",
    readOnly: false,
    detached: true,
    run: enqueueAs(name),
  });

const detachedActions = [
  detached("test_gated", z.object({ gate: z.string().min(1).max(40) })),
  detached("test_failing", z.object({ plain: z.boolean().optional() })),
  detached("test_keyed", z.object({})),
];
const actions = [...testActions, ...detachedActions, taskCancelAction];

const kinds = [gated, failing, keyed];

async function getTask(w: TestWorld, taskId: string, key = w.keys.editor): Promise<{ status: number; body: TaskView; text: string }> {
  const res = await send(w, `/v1/tasks/${taskId}`, { key });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as TaskView, text };
}

async function cancel(w: TestWorld, taskId: string, key = w.keys.editor): Promise<{ status: number; body: TaskView; text: string }> {
  const res = await send(w, `/v1/tasks/${taskId}/cancel`, { method: "POST", key });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as TaskView, text };
}

function enqueue(w: TestWorld, kind: string, input: unknown, projectId = w.projectId, userId = w.userIds.editor) {
  return w.app.tasks.enqueue({ projectId, kind, input, userId });
}

describe("detached tasks", () => {
  let dir: string;
  let w: TestWorld;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-tasks-"));
    w = await createTestWorld({
      dbUrl: `file:${dir}/pks.db`,
      actions,
      taskKinds: kinds,
      env: { PKS_RATE_LIMIT: "100000" },
    });
  });
  afterAll(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const g of ["a", "b", "c", "d", "e", "s"]) gates.open(g);
    await w.app.tasks.whenIdle();
    gates.reset();
  });

  it("runs queued → running → succeeded, with its progress visible while it runs", async () => {
    const { taskId, status } = await enqueue(w, "test_gated", { gate: "a" });
    expect(status).toBe("queued");
    expect(taskId).toMatch(/^tsk_[0-9A-Za-z]{22}$/);
    const running = await until(() => getTask(w, taskId), (t) => t.body.progress.done === 1, 10_000, "progress", 20);
    expect(running.status).toBe(200);
    expect(running.body).toMatchObject({ taskId, projectId: w.projectId, action: "test_gated", status: "running", progress: { done: 1, total: 3 } });
    expect(running.body).not.toHaveProperty("result");
    gates.open("a", 42);
    await w.app.tasks.whenIdle();
    const done = await getTask(w, taskId);
    expect(done.body).toMatchObject({ status: "succeeded", progress: { done: 3, total: 3 }, result: { gate: "a", value: 42 } });
    expect(done.body).not.toHaveProperty("error");
    expect(Date.parse(done.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(done.body.createdAt));
  });

  it("fails with an AppError's message, and hides any other error behind `internal error`", async () => {
    const app = await enqueue(w, "test_failing", {});
    const plain = await enqueue(w, "test_failing", { plain: true });
    await w.app.tasks.whenIdle();
    expect((await getTask(w, app.taskId)).body).toMatchObject({ status: "failed", error: "the draft moved under the task" });
    const hidden = await getTask(w, plain.taskId);
    expect(hidden.body).toMatchObject({ status: "failed", error: "internal error" });
    expect(hidden.text).not.toContain("SQLITE");
    expect(hidden.body).not.toHaveProperty("result");
  });

  it("fails a task of a kind no handler is registered for, and refuses to queue one", async () => {
    const stored = await insertTask(w.app.db, { projectId: w.projectId, kind: "no_such_kind", input: {}, userId: w.userIds.editor }, new Date().toISOString());
    w.app.tasks.kick();
    await w.app.tasks.whenIdle();
    expect((await getTask(w, stored.taskId)).body).toMatchObject({ status: "failed", error: "unknown task kind", action: "no_such_kind" });
    await expect(enqueue(w, "no_such_kind", {})).rejects.toThrow(/no task kind/);
  });

  it("runs at most two at a time; a queued task cancelled never runs", async () => {
    const a = await enqueue(w, "test_gated", { gate: "a" });
    const b = await enqueue(w, "test_gated", { gate: "b" });
    const c = await enqueue(w, "test_gated", { gate: "c" });
    await until(() => getTask(w, b.taskId), (t) => t.body.status === "running", 10_000, "b running", 20);
    expect((await getTask(w, a.taskId)).body.status).toBe("running");
    expect((await getTask(w, c.taskId)).body.status).toBe("queued");
    const cancelled = await cancel(w, c.taskId);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ taskId: c.taskId, status: "cancelled" });
    gates.open("a");
    gates.open("b");
    await w.app.tasks.whenIdle();
    expect(seen.runs).not.toContain(c.taskId);
    expect((await getTask(w, c.taskId)).body.status).toBe("cancelled");
    expect((await getTask(w, a.taskId)).body.status).toBe("succeeded");
  });

  it("cancels a running task: its handler sees the signal aborted and the task ends cancelled", async () => {
    const { taskId } = await enqueue(w, "test_gated", { gate: "d" });
    await until(() => getTask(w, taskId), (t) => t.body.status === "running", 10_000, "running", 20);
    const asked = await cancel(w, taskId);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ taskId, status: "running" });
    await until(() => getTask(w, taskId), (t) => t.body.status === "cancelled", 10_000, "cancelled", 20);
    expect(seen.aborted).toContain(taskId);
    gates.open("d", "late");
    await w.app.tasks.whenIdle();
    const after = await getTask(w, taskId);
    expect(after.body.status).toBe("cancelled");
    expect(after.body).not.toHaveProperty("result");
  });

  it("cancelling a cancelled task answers it as is; a finished one is 409 task already finished", async () => {
    const ok = await enqueue(w, "test_gated", { gate: "e" });
    gates.open("e");
    const failed = await enqueue(w, "test_failing", {});
    await w.app.tasks.whenIdle();
    for (const id of [ok.taskId, failed.taskId]) {
      const before = (await getTask(w, id)).text;
      const res = await cancel(w, id);
      expect(`${res.status} ${res.text}`).toBe(`409 ${FINISHED}`);
      expect((await getTask(w, id)).text).toBe(before);
    }
    const queuedThenCancelled = await w.app.db.transaction(async (tx) => {
      const t = await insertTask(tx, { projectId: w.projectId, kind: "test_keyed", input: {}, userId: w.userIds.editor }, new Date().toISOString());
      await tx.execute("UPDATE tasks SET status = 'cancelled' WHERE task_id = ?", [t.taskId]);
      return t;
    });
    const first = await getTask(w, queuedThenCancelled.taskId);
    const again = await cancel(w, queuedThenCancelled.taskId);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
  });

  it("answers 404 task not found to a non-member and to a key bound elsewhere, byte-identical to an unknown id", async () => {
    const { taskId } = await enqueue(w, "test_keyed", {});
    await w.app.tasks.whenIdle();
    const unknown = await getTask(w, "tsk_doesnotexist0000000000");
    expect(`${unknown.status} ${unknown.text}`).toBe(`404 ${TASK_NOT_FOUND}`);
    const outsider = await getTask(w, taskId, w.keys.outsider);
    expect(`${outsider.status} ${outsider.text}`).toBe(`404 ${TASK_NOT_FOUND}`);
    const outsiderCancel = await cancel(w, taskId, w.keys.outsider);
    expect(`${outsiderCancel.status} ${outsiderCancel.text}`).toBe(`404 ${TASK_NOT_FOUND}`);
    const unknownCancel = await cancel(w, "tsk_doesnotexist0000000000", w.keys.outsider);
    expect(`${unknownCancel.status} ${unknownCancel.text}`).toBe(`404 ${TASK_NOT_FOUND}`);

    // A task of the other project: its owner sees it, a member of this project and a key bound here do not.
    const theirs = await enqueue(w, "test_keyed", {}, w.otherProjectId, w.userIds.outsider);
    await w.app.tasks.whenIdle();
    expect((await getTask(w, theirs.taskId, w.keys.outsider)).body).toMatchObject({ projectId: w.otherProjectId, status: "succeeded" });
    for (const key of [w.keys.editor, w.keys.owner, w.keys.bound]) {
      const res = await getTask(w, theirs.taskId, key);
      expect(`${res.status} ${res.text}`).toBe(`404 ${TASK_NOT_FOUND}`);
      const c = await cancel(w, theirs.taskId, key);
      expect(`${c.status} ${c.text}`).toBe(`404 ${TASK_NOT_FOUND}`);
    }
  });

  it("a viewer may read a task but not cancel it; a submit key reaches neither", async () => {
    const { taskId } = await enqueue(w, "test_gated", { gate: "a" });
    await until(() => getTask(w, taskId), (t) => t.body.status === "running", 10_000, "running", 20);
    const read = await getTask(w, taskId, w.keys.viewer);
    expect(read.status).toBe(200);
    expect(read.body.taskId).toBe(taskId);
    const denied = await cancel(w, taskId, w.keys.viewer);
    expect(`${denied.status} ${denied.text}`).toBe(`403 ${EDITOR_DENIED}`);
    for (const res of [await getTask(w, taskId, w.keys.submit), await cancel(w, taskId, w.keys.submit)]) {
      expect(`${res.status} ${res.text}`).toBe(`403 ${SUBMIT_DENIED}`);
    }
    expect((await getTask(w, taskId)).body.status).toBe("running");
    expect(seen.aborted).not.toContain(taskId);
  });

  it("task_cancel (dispatch and MCP) cancels with the REST endpoint's rules: running → cancelled, again as is, finished 409, viewer 403, non-member 404", async () => {
    const taskCancel = async (taskId: string, key = w.keys.editor) => {
      const res = await send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action: "task_cancel", input: { taskId } } });
      return { status: res.status, text: await res.text() };
    };
    const { taskId } = await enqueue(w, "test_gated", { gate: "d" });
    await until(() => getTask(w, taskId), (t) => t.body.status === "running", 10_000, "running", 20);
    const viewer = await taskCancel(taskId, w.keys.viewer);
    expect(`${viewer.status} ${viewer.text}`).toBe(`403 ${SUBMIT_DENIED}`);
    const submit = await taskCancel(taskId, w.keys.submit);
    expect(`${submit.status} ${submit.text}`).toBe(`403 ${SUBMIT_DENIED}`);
    const outsider = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.outsider, project: w.otherProjectId, json: { action: "task_cancel", input: { taskId } } });
    expect(`${outsider.status} ${await outsider.text()}`).toBe(`404 ${TASK_NOT_FOUND}`);
    expect(seen.aborted).not.toContain(taskId);

    const asked = await taskCancel(taskId);
    expect(asked.status).toBe(200);
    expect(JSON.parse(asked.text)).toMatchObject({ action: "task_cancel", result: { taskId, status: "running" } });
    const ended = await until(() => getTask(w, taskId), (t) => t.body.status === "cancelled", 10_000, "cancelled", 20);
    expect(seen.aborted).toContain(taskId);
    const again = await taskCancel(taskId);
    expect(JSON.parse(again.text)).toEqual({ action: "task_cancel", result: ended.body });

    const done = await enqueue(w, "test_keyed", {});
    await w.app.tasks.whenIdle();
    const finishedAlready = await taskCancel(done.taskId);
    expect(`${finishedAlready.status} ${finishedAlready.text}`).toBe(`409 ${FINISHED}`);

    const queued = await enqueue(w, "test_gated", { gate: "e" });
    const client = await connectMcpClient(w, { key: w.keys.editor });
    try {
      const overMcp = await client.callTool({ name: "task_cancel", arguments: { taskId: queued.taskId } });
      expect(overMcp.isError).toBeFalsy();
      expect(["running", "cancelled"]).toContain((overMcp.structuredContent as { result: { status: string } }).result.status);
      await until(() => getTask(w, queued.taskId), (t) => t.body.status === "cancelled", 10_000, "cancelled", 20);
    } finally {
      await client.close();
    }
  });

  it("dispatching a detached action answers {action, result: {taskId, status: queued}}; the task runs and is polled by id", async () => {
    const list = await send(w, "/v1/api/actions", { key: w.keys.editor });
    const described = ((await list.json()) as { actions: Array<{ name: string; detached: boolean }> }).actions.find((a) => a.name === "test_gated");
    expect(described?.detached).toBe(true);

    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.editor, project: w.projectId, json: { action: "test_gated", input: { gate: "s" } } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { action: string; result: { taskId: string; status: string } };
    expect(body).toEqual({ action: "test_gated", result: { taskId: expect.stringMatching(/^tsk_/), status: "queued" } });
    gates.open("s", "dispatched");
    await w.app.tasks.whenIdle();
    const task = await getTask(w, body.result.taskId);
    expect(task.body).toMatchObject({ projectId: w.projectId, action: "test_gated", status: "succeeded", result: { gate: "s", value: "dispatched" } });
    const row = await w.app.db.get<{ user_id: string; input: string }>("SELECT user_id, input FROM tasks WHERE task_id = ?", [body.result.taskId]);
    expect(row).toEqual({ user_id: w.userIds.editor, input: '{"gate":"s"}' });

    // Bad input and a viewer are refused before anything is queued.
    const before = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks");
    const bad = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.editor, project: w.projectId, json: { action: "test_gated", input: { gate: "" } } });
    expect(bad.status).toBe(400);
    const viewer = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "test_gated", input: { gate: "x" } } });
    expect(viewer.status).toBe(403);
    expect(await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks")).toEqual(before);
  });

  it("stop() during a run aborts it and queues the task again, uncounted; the next start runs it to the end", async () => {
    const { taskId } = await enqueue(w, "test_gated", { gate: "b" });
    await until(() => getTask(w, taskId), (t) => t.body.status === "running", 10_000, "running", 20);
    await w.app.tasks.stop();
    expect(seen.aborted).toContain(taskId);
    const row = await w.app.db.get<{ status: string; attempts: number }>("SELECT status, attempts FROM tasks WHERE task_id = ?", [taskId]);
    expect(row).toEqual({ status: "queued", attempts: 0 });
    gates.reset();
    gates.open("b", "second run");
    await w.app.tasks.start();
    await w.app.tasks.whenIdle();
    expect((await getTask(w, taskId)).body).toMatchObject({ status: "succeeded", result: { gate: "b", value: "second run" } });
    expect(seen.runs.filter((id) => id === taskId)).toHaveLength(2);
  });
});

describe("every task kind runs through the one pipeline, as the action it belongs to", () => {
  it("a caller who lost access between queuing and running is refused for every kind before its work; stored input is checked by the action's schema", async () => {
    const w = await createTestWorld({ actions: [...productActions, ...detachedActions], taskKinds: kinds, startWorker: false });
    try {
      const detachedNames = w.app.service.catalog.list().filter((a) => a.detached).map((a) => a.name);
      expect([...w.app.tasks.kinds].sort()).toEqual([...detachedNames].sort());
      expect(detachedNames).toEqual(expect.arrayContaining(["document_ingest", "artifact_update", "type_refill"]));
      const inputs: Record<string, unknown> = {
        document_ingest: { source: "docs/a.md" },
        artifact_update: { purpose: "a summary of everything" },
        type_refill: { entityId: "ent_none" },
        test_gated: { gate: "p" },
        test_failing: {},
        test_keyed: {},
      };
      const downgraded = [];
      const removed = [];
      for (const kind of detachedNames) {
        downgraded.push(await enqueue(w, kind, inputs[kind], w.projectId, w.userIds.editor));
        removed.push(await enqueue(w, kind, inputs[kind], w.projectId, w.userIds.owner));
      }
      await setMembership(w.app.db, w.projectId, w.userIds.editor, "viewer");
      await removeMembership(w.app.db, w.projectId, w.userIds.owner);
      seen.runs.length = 0;
      await w.app.tasks.start();
      await w.app.tasks.whenIdle();
      for (const [i, kind] of detachedNames.entries()) {
        expect([kind, (await getTask(w, downgraded[i]!.taskId, w.keys.viewer)).body]).toMatchObject([kind, { status: "failed", error: "action not available to an API key" }]);
        const row = await w.app.db.get<{ status: string; error: string }>("SELECT status, error FROM tasks WHERE task_id = ?", [removed[i]!.taskId]);
        expect([kind, row]).toEqual([kind, { status: "failed", error: "project not found" }]);
      }
      expect(seen.runs).toEqual([]);
      const stored = await w.app.db.get<{ files: number; artifacts: number }>("SELECT (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM artifacts) AS artifacts");
      expect(stored).toEqual({ files: 0, artifacts: 0 });

      await setMembership(w.app.db, w.projectId, w.userIds.editor, "editor");
      const bad = await enqueue(w, "test_gated", { gate: 7 });
      const unknownArgument = await enqueue(w, "test_keyed", { extra: true });
      await w.app.tasks.whenIdle();
      expect((await getTask(w, bad.taskId)).body).toMatchObject({ status: "failed", error: expect.stringMatching(/^invalid input: gate: /) });
      expect((await getTask(w, unknownArgument.taskId)).body).toMatchObject({ status: "failed", error: 'invalid input: unknown argument "extra"; accepted: none' });
      expect(seen.runs).toEqual([]);
    } finally {
      await w.close();
    }
  });
});

describe("a task left running by a killed process", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is queued again at start and run exactly once; its keyed write stays single; one interrupted too often fails", async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-tasks-restart-"));
    const dbUrl = `file:${dir}/pks.db`;
    const held = await createTestWorld({ dbUrl, startWorker: false, taskKinds: kinds, actions });
    const db = held.app.db;
    const resumed = await enqueue(held, "test_keyed", {});
    const waiting = await enqueue(held, "test_keyed", {});
    const doomed = await enqueue(held, "test_keyed", {});
    const cancelling = await enqueue(held, "test_keyed", {});
    // What a kill leaves: the first run had claimed `resumed` and written its row; `doomed` had stopped the server three times.
    await db.execute("UPDATE tasks SET status = 'running', attempts = 1, progress_done = 1, progress_total = 2 WHERE task_id = ?", [resumed.taskId]);
    await db.execute("INSERT INTO settings (key, value) VALUES (?, 'partial')", [`task-test:${resumed.taskId}`]);
    await db.execute("UPDATE tasks SET status = 'running', attempts = 3 WHERE task_id = ?", [doomed.taskId]);
    await db.execute("UPDATE tasks SET status = 'running', attempts = 1, cancel_requested = 1 WHERE task_id = ?", [cancelling.taskId]);
    await held.app.close();
    seen.runs.length = 0;

    let app: App | undefined;
    try {
      app = await createApp(loadConfig({ root: held.root, db: dbUrl }, { PKS_LOG: "silent" }), { taskKinds: kinds, actions });
      await app.tasks.whenIdle();
      expect(seen.runs.filter((id) => id === resumed.taskId)).toHaveLength(1);
      expect(seen.runs.filter((id) => id === waiting.taskId)).toHaveLength(1);
      expect(seen.runs).not.toContain(doomed.taskId);
      expect(seen.runs).not.toContain(cancelling.taskId);
      const rows = await app.db.all<{ task_id: string; status: string; error: string | null; attempts: number; result: string | null }>(
        "SELECT task_id, status, error, attempts, result FROM tasks",
      );
      const byId = new Map(rows.map((r) => [r.task_id, r]));
      expect(byId.get(resumed.taskId)).toEqual({ task_id: resumed.taskId, status: "succeeded", error: null, attempts: 0, result: `{"wrote":"${resumed.taskId}"}` });
      expect(byId.get(waiting.taskId)).toMatchObject({ status: "succeeded", attempts: 0 });
      expect(byId.get(doomed.taskId)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
      expect(byId.get(cancelling.taskId)).toMatchObject({ status: "cancelled" });
      const written = await app.db.all<{ key: string; value: string }>("SELECT key, value FROM settings WHERE key LIKE 'task-test:%' ORDER BY key");
      expect(written).toEqual(
        [resumed.taskId, waiting.taskId].sort().map((id) => ({ key: `task-test:${id}`, value: "done" })),
      );
    } finally {
      await app?.close();
      rmSync(held.root, { recursive: true, force: true });
    }
  });
});
