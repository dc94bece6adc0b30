/**
 * `artifact_update` end to end on a file database: dispatch queues a task,
 * the task worker builds the artifact, the reads serve it with its
 * citations, `memory_query` lists it, and a re-read file makes it stale.
 * Each build step pauses 150 ms (`PKS_ARTIFACT_STEP_DELAY_MS`, the test knob)
 * so the running state can be seen.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get_encoding } from "tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CITATION } from "../../src/artifacts/compose-body.js";
import type { ArtifactListRow, ArtifactResource } from "../../src/artifacts/resources.js";
import type { TaskView } from "../../src/tasks/task-endpoints.js";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const KEY_DENIED = '{"error":{"status":403,"code":"action_not_available","message":"action not available to an API key"}}';
const NOT_FOUND = '{"error":{"status":404,"code":"artifact_not_found","message":"artifact not found"}}';

const BILLING = "# Billing\n\nInvoices are issued on the first day of each month. Late invoices incur a fee of 25 euros.\n\n## Contacts\n\nThe billing owner is Dana Reyes. Questions about invoices go to billing@example.com.\n";
const DOCS: Array<[string, string]> = [
  ["billing.md", BILLING],
  ["faq.txt", "Refunds are processed within 5 days. Invoices can be downloaded as PDF.\n"],
  ["deploy.md", "# Deployment\n\nThe service deploys from the main branch every night. Rollbacks take ten minutes.\n"],
  ["garden.md", "# Garden\n\nTomatoes need sun. Basil grows well beside tomatoes.\n"],
];

type Dispatch = { action: string; result: { taskId: string; status: string } };

describe("artifact_update", () => {
  let w: TestWorld;
  let dir: string;
  const base = () => `/v1/projects/${w.projectId}`;
  const dispatch = (input: Record<string, unknown>, key = w.keys.editor, action = "artifact_update") =>
    send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action, input } });
  const taskCount = async () => Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks"))!.n);
  const getJson = async <T>(path: string, key = w.keys.viewer): Promise<T> => {
    const res = await send(w, path, { key });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  /** Polls the task until it ends, keeping every state seen. */
  async function follow(taskId: string): Promise<{ final: TaskView; seen: TaskView[] }> {
    const seen: TaskView[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = await getJson<TaskView>(`/v1/tasks/${taskId}`, w.keys.editor);
      seen.push(t);
      if (t.status !== "queued" && t.status !== "running") return { final: t, seen };
      await new Promise((r) => setTimeout(r, 15));
    }
    throw new Error(`task ${taskId} did not finish`);
  }

  /** Dispatches a build and waits for its artifact. */
  async function build(input: Record<string, unknown>): Promise<{ artifactId: string; title: string; kind: string }> {
    const res = await dispatch(input);
    expect(res.status).toBe(200);
    const { final } = await follow(((await res.json()) as Dispatch).result.taskId);
    expect(final.status, final.error).toBe("succeeded");
    return final.result as { artifactId: string; title: string; kind: string };
  }

  /** Every live cell the cells read serves, by id. */
  async function servedCells(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    let cursor = "";
    do {
      const res = await send(w, `${base()}/cells?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: w.keys.viewer });
      for (const c of (await res.json()) as Array<{ cellId: string; text: string }>) out.set(c.cellId, c.text);
      cursor = res.headers.get("x-next-cursor") ?? "";
    } while (cursor);
    return out;
  }

  beforeAll(async () => {
    process.env.PKS_ARTIFACT_STEP_DELAY_MS = "150";
    dir = mkdtempSync(join(tmpdir(), "pks-artifacts-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, actions, env: { PKS_RATE_LIMIT: "100000" } });
    delete process.env.PKS_ARTIFACT_STEP_DELAY_MS;
    await ingest(w, DOCS.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let billingArtifact: string;

  it("queues a task that goes queued → running (with progress) → succeeded, and every citation is a live cell the cells read serves", async () => {
    const res = await dispatch({ purpose: "Report on how invoices are issued and billed" });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Dispatch;
    expect(answer.action).toBe("artifact_update");
    expect(answer.result.status).toBe("queued");
    expect(answer.result.taskId).toMatch(/^tsk_/);
    const { final, seen } = await follow(answer.result.taskId);
    const running = seen.filter((t) => t.status === "running");
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((t) => t.progress.total === 3 && t.progress.done >= 1 && t.progress.done < 3)).toBe(true);
    expect(final.status).toBe("succeeded");
    expect(final.progress).toEqual({ done: 3, total: 3 });
    const result = final.result as { artifactId: string; title: string; kind: string };
    expect(result).toEqual({ artifactId: expect.stringMatching(/^art_[0-9A-Za-z]{22}$/), title: "Report on how invoices are issued and billed", kind: "report" });
    billingArtifact = result.artifactId;

    const a = await getJson<ArtifactResource>(`${base()}/artifacts/${result.artifactId}`);
    expect(a).toMatchObject({ artifactId: result.artifactId, title: result.title, kind: "report", purpose: "Report on how invoices are issued and billed", stale: false, corpusVersion: 1 });
    expect(a.body.startsWith(`# ${result.title}\n\n**Purpose:** Report on how invoices are issued and billed\n`)).toBe(true);
    expect(a.body).toContain("Invoices are issued on the first day of each month.");
    expect(a.body).not.toContain("Tomatoes");
    expect(a.citations.length).toBeGreaterThan(1);
    expect(a.citations.every((c) => c.live)).toBe(true);

    // The body cites only stored ids, exactly the citations, and each claim is its cell's text.
    const cited = [...a.body.matchAll(CITATION)].map((m) => m[1]!);
    expect(cited).toEqual(a.citations.map((c) => c.cellId));
    const cells = await servedCells();
    for (const id of cited) {
      expect(cells.has(id), id).toBe(true);
      expect(a.body).toContain(`${cells.get(id)} [${id}]`);
    }
    expect([...a.body.matchAll(/\bcel_[0-9A-Za-z]{22}\b/g)].every((m) => cells.has(m[0]))).toBe(true);
  });

  it("chooses the kind from the purpose when none is given, and keeps the body within its budget", async () => {
    expect((await build({ purpose: "Summarize the refund rules" })).kind).toBe("summary");
    expect((await build({ purpose: "A note to finance about late invoice fees" })).kind).toBe("memo");
    expect((await build({ purpose: "Summarize the deployment schedule", kind: "report", title: "Deploys" })).kind).toBe("report");
    const small = await build({ purpose: "Everything about invoices, refunds and deployment", budget: 120 });
    const a = await getJson<ArtifactResource>(`${base()}/artifacts/${small.artifactId}`);
    const enc = get_encoding("o200k_base");
    expect(enc.encode(a.body).length).toBeLessThanOrEqual(120);
    enc.free();
    expect(a.citations.length).toBeGreaterThan(0);
  });

  it("is refused before anything is queued: a viewer, an artifactId, a budget below the empty body", async () => {
    const before = await taskCount();
    const viewer = await dispatch({ purpose: "Report on invoices" }, w.keys.viewer);
    expect(viewer.status).toBe(403);
    expect(await viewer.text()).toBe(KEY_DENIED);
    const edit = await dispatch({ purpose: "Report on invoices", artifactId: billingArtifact });
    expect(edit.status).toBe(403);
    expect(await edit.text()).toBe(KEY_DENIED);
    const tight = await dispatch({ purpose: "Report on invoices", budget: 3 });
    expect(tight.status).toBe(400);
    expect(((await tight.json()) as { error: { message: string } }).error.message).toMatch(
      /^invalid input: budget: must be at least \d+ tokens, what the empty answer already costs$/,
    );
    const empty = await dispatch({ purpose: "   " });
    expect(empty.status).toBe(400);
    expect(await taskCount()).toBe(before);
  });

  it("lists the project's artifacts paged by id, and answers 404 for an unknown one", async () => {
    const all = await getJson<ArtifactListRow[]>(`${base()}/artifacts?limit=200`);
    expect(all.length).toBe(5);
    expect(all.map((r) => r.artifactId)).toEqual([...all.map((r) => r.artifactId)].sort());
    expect(all.find((r) => r.artifactId === billingArtifact)).toEqual({
      artifactId: billingArtifact,
      title: "Report on how invoices are issued and billed",
      kind: "report",
      corpusVersion: 1,
      stale: false,
      updatedAt: expect.any(String),
    });
    const paged: string[] = [];
    let cursor = "";
    do {
      const res = await send(w, `${base()}/artifacts?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: w.keys.viewer });
      paged.push(...((await res.json()) as ArtifactListRow[]).map((r) => r.artifactId));
      cursor = res.headers.get("x-next-cursor") ?? "";
    } while (cursor);
    expect(paged).toEqual(all.map((r) => r.artifactId));
    const other = await send(w, `/v1/projects/${w.otherProjectId}/artifacts`, { key: w.keys.outsider });
    expect(await other.json()).toEqual([]);
    const missing = await send(w, `${base()}/artifacts/art_0000000000000000000000`, { key: w.keys.viewer });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(NOT_FOUND);
    const elsewhere = await send(w, `/v1/projects/${w.otherProjectId}/artifacts/${billingArtifact}`, { key: w.keys.outsider });
    expect(elsewhere.status).toBe(404);
  });

  it("memory_query lists a matching artifact among its packed rows and keeps used ≤ budget, counted exactly", async () => {
    const ask = async (input: Record<string, unknown>) =>
      ((await (await dispatch(input, w.keys.viewer, "memory_query")).json()) as { result: MemoryQueryAnswer }).result;
    const a = await ask({ query: "How are invoices billed?" });
    expect(a.artifacts).toContainEqual({ artifactId: billingArtifact, title: "Report on how invoices are issued and billed" });
    expect(a.artifacts.length).toBeLessThanOrEqual(3);
    const none = await ask({ query: "tomatoes basil sun" });
    expect(none.artifacts).toEqual([]);
    const enc = get_encoding("o200k_base");
    for (const budget of [40, 80, 200, 4096]) {
      const r = await ask({ query: "How are invoices billed?", budget });
      expect(r.used).toBe(enc.encode(JSON.stringify({ query: r.query, cells: r.cells, entities: r.entities, artifacts: r.artifacts, declarations: r.declarations, files: r.files })).length);
      expect(r.used).toBeLessThanOrEqual(budget);
    }
    enc.free();
  });

  it("reads stale once a cited cell is retired by a re-read of its file, and memory_query lists live artifacts first", async () => {
    const fresh = await build({ purpose: "Report on how invoices are billed at month start", title: "Invoices billed" });
    const { body } = await ingest(w, [fileEntry("billing.md", BILLING.replace("Invoices are issued on the first day of each month.", "Invoices are issued every second Tuesday."))]);
    expect(body.accepted).toHaveLength(1);
    await w.app.worker.whenIdle();

    const a = await getJson<ArtifactResource>(`${base()}/artifacts/${billingArtifact}`);
    expect(a.stale).toBe(true);
    const dead = a.citations.filter((c) => !c.live).map((c) => c.cellId);
    expect(dead.length).toBeGreaterThan(0);
    const cells = await servedCells();
    for (const c of a.citations) expect(cells.has(c.cellId)).toBe(c.live);
    const row = (await getJson<ArtifactListRow[]>(`${base()}/artifacts?limit=200`)).find((r) => r.artifactId === billingArtifact);
    expect(row?.stale).toBe(true);

    // Built before the re-read, `fresh` cites the same section and is stale too; a build after it is not.
    const rebuilt = await build({ purpose: "Report on how invoices are billed", title: "Invoices billed again" });
    const r = await getJson<ArtifactResource>(`${base()}/artifacts/${rebuilt.artifactId}`);
    expect(r.stale).toBe(false);
    expect(r.corpusVersion).toBe(2);
    expect(r.body).toContain("Invoices are issued every second Tuesday.");
    const answer = ((await (await dispatch({ query: "How are invoices billed?" }, w.keys.viewer, "memory_query")).json()) as { result: MemoryQueryAnswer }).result;
    const staleOf = new Map((await getJson<ArtifactListRow[]>(`${base()}/artifacts?limit=200`)).map((x) => [x.artifactId, x.stale]));
    expect(staleOf.get(fresh.artifactId)).toBe(true);
    const flags = answer.artifacts.map((x) => staleOf.get(x.artifactId));
    expect(answer.artifacts[0]!.artifactId).toBe(rebuilt.artifactId);
    expect(flags).toContain(true);
    expect(flags).toEqual([...flags].sort((x, y) => Number(x) - Number(y)));
  });
});
