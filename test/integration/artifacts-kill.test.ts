/**
 * An artifact build survives `kill -9`: a real `pks serve` is killed with
 * SIGKILL while an `artifact_update` task is running, started again on the
 * same database, and the task then ends `succeeded` with exactly one
 * artifact. A build takes milliseconds, so the first server pauses 1.5 s
 * after each build step (`PKS_ARTIFACT_STEP_DELAY_MS`, a test knob) to give
 * the kill a window; the second runs at full speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ArtifactListRow, ArtifactResource } from "../../src/artifacts/resources.js";
import type { TaskView } from "../../src/tasks/task-endpoints.js";
import { spawnServe } from "../support/spawn-pks.js";
import { until } from "../support/until.js";


interface Server {
  /** The server's origin: paths below start with `/v1`. */
  rest: string;
  projectId: string;
  key: string | undefined;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts `pks serve` on `root` (no folder sync) and waits for its address block. */
async function startServer(root: string, env: Record<string, string>): Promise<Server> {
  const served = await spawnServe(root, { PKS_RATE_LIMIT: "100000", ...env }, 60_000).ready;
  return { rest: new URL(served.rest).origin, projectId: served.projectId, key: served.key, kill: served.kill };
}

async function call<T>(server: Server, key: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.rest}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const DOCS: Array<[string, string]> = [
  ["billing.md", "# Billing\n\nInvoices are issued on the first day of each month. Late invoices incur a fee of 25 euros.\n\n## Contacts\n\nThe billing owner is Dana Reyes.\n"],
  ["faq.txt", "Refunds are processed within 5 days. Invoices can be downloaded as PDF.\n"],
];

describe("an artifact build killed with SIGKILL", () => {
  const root = mkdtempSync(join(tmpdir(), "pks-artifact-kill-"));
  const servers: Server[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("is run again after a restart and finishes once, with exactly one artifact", { timeout: 180_000 }, async () => {
    const first = await startServer(root, { PKS_ARTIFACT_STEP_DELAY_MS: "1500" });
    servers.push(first);
    const key = first.key!;
    const p = `/v1/projects/${first.projectId}`;
    const files = DOCS.map(([path, text]) => ({ path, content: Buffer.from(text).toString("base64") }));
    expect((await call(first, key, "POST", `${p}/ingest`, { files })).status).toBe(200);
    await until(() => call<{ state: string }>(first, key, "GET", `${p}/ingest`), (r) => r.body.state === "idle", 60_000, "reading");

    const queued = await call<{ result: { taskId: string; status: string } }>(first, key, "POST", "/v1/api/actions", {
      action: "artifact_update",
      input: { purpose: "Report on how invoices are issued" },
    });
    expect(queued.status).toBe(200);
    const taskId = queued.body.result.taskId;
    const running = await until(
      () => call<TaskView>(first, key, "GET", `/v1/tasks/${taskId}`),
      (r) => r.body.status === "running" && r.body.progress.done >= 1,
      30_000,
      "the build to run",
    );
    expect(running.body.progress).toEqual({ done: 1, total: 3 });
    expect(await first.kill("SIGKILL")).toBeNull();

    const second = await startServer(root, {});
    servers.push(second);
    const done = await until(
      () => call<TaskView>(second, key, "GET", `/v1/tasks/${taskId}`),
      (r) => r.body.status !== "queued" && r.body.status !== "running",
      60_000,
      "the task to finish",
    );
    expect(done.body.status).toBe("succeeded");
    expect(done.body.progress).toEqual({ done: 3, total: 3 });
    const result = done.body.result as { artifactId: string; title: string; kind: string };
    expect(result.kind).toBe("report");

    const list = await call<ArtifactListRow[]>(second, key, "GET", `${p}/artifacts`);
    expect(list.body.map((a) => a.artifactId)).toEqual([result.artifactId]);
    const artifact = await call<ArtifactResource>(second, key, "GET", `${p}/artifacts/${result.artifactId}`);
    expect(artifact.body.stale).toBe(false);
    expect(artifact.body.citations.length).toBeGreaterThan(0);
    expect(artifact.body.citations.every((c) => c.live)).toBe(true);
    expect(artifact.body.body).toContain("Invoices are issued on the first day of each month.");
  });
});
