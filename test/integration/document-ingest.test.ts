import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMembership } from "../../src/store/access/memberships.js";
import { createProject } from "../../src/store/access/projects.js";
import { fileEntry, ingest, liveCells } from "../support/ingest-helpers.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { until } from "../support/until.js";
import { createTestWorld, send } from "../support/test-app.js";
import { actions as productActions } from "../../tools/index.js";
import type { TestWorld } from "../support/test-app.js";

/** A loopback web server that counts every request reaching it. */
interface Site {
  port: number;
  base: string;
  requests: string[];
  close(): Promise<void>;
}

async function startSite(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Site> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const GUIDE = "# Deployment guide\n\nThe staging cluster runs on Quillfeather hosts.\n\nBackups rotate every Tuesday.\n";
const AWS_KEY = `aws_access_key_id = AKIA${"Q3ZT7WJ4MNXK2PLD"}\n`;

interface TaskView {
  taskId: string;
  action: string;
  status: string;
  result?: unknown;
  error?: string;
}

/** Dispatches document_ingest and answers the HTTP status and body. */
async function dispatch(w: TestWorld, source: string, key = w.keys.editor, project = w.projectId) {
  const res = await send(w, "/v1/api/actions", { method: "POST", key, project, json: { action: "document_ingest", input: { source } } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls the task over REST until it is finished. */
async function finished(w: TestWorld, taskId: string): Promise<TaskView> {
  for (let i = 0; i < 400; i++) {
    const res = await send(w, `/v1/tasks/${taskId}`, { key: w.keys.editor });
    const task = (await res.json()) as TaskView;
    if (task.status !== "queued" && task.status !== "running") return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${taskId} did not finish`);
}

/** Dispatches, checks the queued answer, and waits for the task's end. */
async function ingestDocument(w: TestWorld, source: string, project = w.projectId): Promise<TaskView> {
  const answer = await dispatch(w, source, w.keys.editor, project);
  expect(answer.status).toBe(200);
  const result = answer.body.result as { taskId: string; status: string };
  expect(answer.body).toEqual({ action: "document_ingest", result: { taskId: result.taskId, status: "queued" } });
  expect(result.taskId).toMatch(/^tsk_[0-9A-Za-z]{22}$/);
  return finished(w, result.taskId);
}

async function fileOf(w: TestWorld, fileId: string, project = w.projectId) {
  const res = await send(w, `/v1/projects/${project}/files/${fileId}`, { key: w.keys.editor });
  return (await res.json()) as { fileId: string; path: string; status: string };
}

describe("document_ingest with the site allowed (PKS_FETCH_ALLOW=127.0.0.1:<port>)", () => {
  let w: TestWorld;
  let site: Site;
  let elsewhere: Site;
  beforeAll(async () => {
    elsewhere = await startSite((_req, res) => res.end("# Not for you\n"));
    site = await startSite((req, res) => {
      if (req.url === "/docs/guide.md") {
        res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" });
        res.end(GUIDE);
      } else if (req.url === "/moved") {
        res.writeHead(302, { location: "/docs/guide.md" });
        res.end();
      } else if (req.url === "/to-elsewhere") {
        res.writeHead(302, { location: `${elsewhere.base}/private.md` });
        res.end();
      } else if (req.url === "/keys.ini") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(AWS_KEY);
      } else if (req.url === "/slow") {
        // Starts an answer and never finishes it: the task waits in its fetch until cancelled.
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("# Slow\n");
      } else if (req.url === "/huge") {
        // Streamed with no length: the cap is found while reading.
        res.writeHead(200, { "content-type": "text/plain" });
        const block = Buffer.alloc(1024 * 1024, 0x61);
        for (let i = 0; i < 24; i++) res.write(block);
        res.end("b");
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    w = await createTestWorld({ actions: productActions, env: { PKS_FETCH_ALLOW: `127.0.0.1:${site.port}`, PKS_RATE_LIMIT: "100000" } });
  });
  afterAll(async () => {
    await w.close();
    await Promise.all([site.close(), elsewhere.close()]);
  });

  it("fetches a Markdown page, reads it through the normal pipeline and answers {fileId}; its cells are queryable", async () => {
    const task = await ingestDocument(w, `${site.base}/docs/guide.md`);
    expect(task).toMatchObject({ action: "document_ingest", status: "succeeded" });
    const { fileId } = task.result as { fileId: string };
    expect(task.result).toEqual({ fileId });
    expect(await fileOf(w, fileId)).toMatchObject({ fileId, path: `web/127.0.0.1:${site.port}/docs/guide.md`, status: "ready" });
    expect((await liveCells(w, fileId)).map((c) => c.text)).toEqual(
      expect.arrayContaining(["The staging cluster runs on Quillfeather hosts.", "Backups rotate every Tuesday."]),
    );
    const query = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input: { query: "Quillfeather staging cluster" } } });
    const cells = ((await query.json()) as { result: { cells: Array<{ text: string }> } }).result.cells.map((c) => c.text);
    expect(cells).toContain("The staging cluster runs on Quillfeather hosts.");
  });

  it("stores a redirected URL under the URL asked for, and fetching it again keeps the file id", async () => {
    const first = await ingestDocument(w, `${site.base}/moved`);
    const second = await ingestDocument(w, `${site.base}/moved`);
    expect(first.status).toBe("succeeded");
    expect(second.result).toEqual(first.result);
    expect(await fileOf(w, (first.result as { fileId: string }).fileId)).toMatchObject({ path: `web/127.0.0.1:${site.port}/moved`, status: "ready" });
  });

  it("reads a fileId of the project again, keeping its id", async () => {
    const { body } = await ingest(w, [fileEntry("notes/plan.md", "# Plan\n\nShip the Wintergreen release in March.\n")]);
    const fileId = body.accepted[0]!.fileId;
    const task = await ingestDocument(w, fileId);
    expect(task).toMatchObject({ status: "succeeded", result: { fileId } });
    expect(await fileOf(w, fileId)).toMatchObject({ path: "notes/plan.md", status: "ready" });
    expect((await liveCells(w, fileId)).map((c) => c.text)).toContain("Ship the Wintergreen release in March.");

    const missing = await ingestDocument(w, "fil_0000000000000000000000");
    expect(missing).toMatchObject({ status: "failed", error: "file not found: fil_0000000000000000000000" });
    // A file of another project is not this project's to read.
    const other = await send(w, `/v1/projects/${w.otherProjectId}/ingest`, { method: "POST", key: w.keys.outsider, json: { files: [fileEntry("x.md", "# X\n")] } });
    const otherId = ((await other.json()) as { accepted: Array<{ fileId: string }> }).accepted[0]!.fileId;
    expect(await ingestDocument(w, otherId)).toMatchObject({ status: "failed", error: `file not found: ${otherId}` });
  });

  it("re-checks a redirect's target: one to a port the allow-list does not name fails, and nothing reaches it", async () => {
    const task = await ingestDocument(w, `${site.base}/to-elsewhere`);
    expect(task).toEqual(
      expect.objectContaining({
        status: "failed",
        error: `refused to fetch ${elsewhere.base}/private.md (redirected from ${site.base}/to-elsewhere): 127.0.0.1 is a loopback address (set PKS_FETCH_ALLOW to allow it)`,
      }),
    );
    expect(elsewhere.requests).toEqual([]);
  });

  it("runs the same credential scan as the ingest endpoint", async () => {
    const task = await ingestDocument(w, `${site.base}/keys.ini`);
    expect(task.status).toBe("failed");
    expect(task.error).toMatch(
      new RegExp(`^web/127\\.0\\.0\\.1:${site.port}/keys\\.ini was refused: looks like a credential \\(rule aws-access-key-id, line 1\\); send it to the ingest endpoint with includeSecret to read it anyway$`),
    );
    // Listed as failed with the reason, holding no bytes, as a refused ingest file is.
    const stored = await w.app.db.all<{ status: string; error: string; file_size: number }>("SELECT status, error, file_size FROM files WHERE path LIKE '%keys.ini'");
    expect(stored.map((f) => [f.status, Number(f.file_size)])).toEqual([["failed", 0]]);
    expect(stored[0]!.error).toMatch(/^looks like a credential \(rule aws-access-key-id, line 1\)/);
  });

  it("fails a document past 24 MiB while it streams, and an HTTP error with its status", async () => {
    expect(await ingestDocument(w, `${site.base}/huge`)).toMatchObject({ status: "failed", error: "the document is larger than 24 MiB" });
    expect(await ingestDocument(w, `${site.base}/nothing-here`)).toMatchObject({
      status: "failed",
      error: `fetching ${site.base}/nothing-here failed: HTTP 404 Not Found`,
    });
  });

  it("cancelling an MCP call that follows the task (SDK client, AbortSignal on callTool) cancels the task; nothing is stored", async () => {
    const client = await connectMcpClient(w, { key: w.keys.editor });
    try {
      const abort = new AbortController();
      const progress: string[] = [];
      const call = client.callTool({ name: "document_ingest", arguments: { source: `${site.base}/slow` } }, undefined, {
        signal: abort.signal,
        onprogress: (p) => progress.push(p.message ?? ""),
      });
      call.catch(() => undefined);
      const taskId = await until(
        async () => /task (tsk_\w+)/.exec(progress[0] ?? "")?.[1],
        (id) => id !== undefined,
        10_000,
        "the call reports its task",
      );
      const status = async () => ((await (await send(w, `/v1/tasks/${taskId!}`, { key: w.keys.editor })).json()) as TaskView).status;
      await until(status, (s) => s === "running", 10_000, "the task runs (waiting in its fetch)");
      abort.abort();
      await expect(call).rejects.toThrow();
      expect(await finished(w, taskId!)).toMatchObject({ status: "cancelled" });
      const stored = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM files WHERE path LIKE '%slow%'");
      expect(stored?.n).toBe(0);
    } finally {
      await client.close();
    }
  });

  it("a viewer may not dispatch it: 403 action not available to an API key, and nothing is queued", async () => {
    const before = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks");
    const res = await dispatch(w, `${site.base}/docs/guide.md`, w.keys.viewer);
    expect(res).toEqual({ status: 403, body: { error: { status: 403, code: "action_not_available", message: "action not available to an API key" } } });
    const after = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks");
    expect(after?.n).toBe(before?.n);
  });

  it("the task runs through the pipeline with the queuing user's live access: a run after a downgrade fails before anything is fetched", async () => {
    const before = site.requests.length;
    const queued = await w.app.tasks.enqueue({ projectId: w.projectId, kind: "document_ingest", input: { source: `${site.base}/docs/guide.md` }, userId: w.userIds.viewer });
    await w.app.tasks.whenIdle();
    const task = await w.app.db.get<{ status: string; error: string }>("SELECT status, error FROM tasks WHERE task_id = ?", [queued.taskId]);
    expect(task).toEqual({ status: "failed", error: "action not available to an API key" });
    expect(site.requests.length).toBe(before);
  });

  it("the catalog lists it as a detached editor action of the document family", async () => {
    const res = await send(w, "/v1/api/actions", { key: w.keys.viewer, project: w.projectId });
    const entry = ((await res.json()) as { actions: Array<Record<string, unknown>> }).actions.find((a) => a.name === "document_ingest");
    expect(entry).toMatchObject({ family: "document", version: "1.0.0", access: "editor", detached: true, readOnly: false });
  });
});

describe("document_ingest of a path under the served folder", () => {
  let w: TestWorld;
  let folderProject: string;
  beforeAll(async () => {
    w = await createTestWorld({ actions: productActions, env: { PKS_RATE_LIMIT: "100000" } });
    const project = await createProject(w.app.db, { name: "folder", rootPath: w.root });
    folderProject = project.projectId;
    await setMembership(w.app.db, folderProject, w.userIds.editor, "editor");
    mkdirSync(join(w.root, "docs"), { recursive: true });
    writeFileSync(join(w.root, "docs", "runbook.md"), "# Runbook\n\nRestart the Marrowind queue before noon.\n");
    writeFileSync(join(w.root, ".gitignore"), "build/\n");
    mkdirSync(join(w.root, "build"));
    writeFileSync(join(w.root, "build", "out.md"), "# Built\n");
    const outside = join(w.root, "..", `outside-${folderProject}.md`);
    writeFileSync(outside, "# Outside\n");
    symlinkSync(outside, join(w.root, "docs", "link.md"));
  });
  afterAll(async () => w.close());

  it("reads the file as folder sync would, into the folder's project", async () => {
    const task = await ingestDocument(w, "./docs/runbook.md", folderProject);
    expect(task.status).toBe("succeeded");
    const { fileId } = task.result as { fileId: string };
    expect(await fileOf(w, fileId, folderProject)).toMatchObject({ path: "docs/runbook.md", status: "ready" });
    expect((await liveCells(w, fileId)).map((c) => c.text)).toContain("Restart the Marrowind queue before noon.");
  });

  it("refuses what folder sync would not read, and paths in a project that serves no folder", async () => {
    const errorOf = async (source: string, project = folderProject) => (await ingestDocument(w, source, project)).error;
    expect(await errorOf("../etc/passwd")).toBe("path contains '..': ../etc/passwd");
    expect(await errorOf("/etc/passwd")).toBe("path is absolute: /etc/passwd");
    expect(await errorOf("docs/missing.md")).toBe("no file docs/missing.md in the served folder");
    expect(await errorOf("docs")).toBe("docs is a folder; name one file");
    expect(await errorOf("docs/link.md")).toBe("docs/link.md leads outside the served folder");
    expect(await errorOf("build/out.md")).toBe("build/out.md is not read: excluded by the folder's ignore rules, or not a regular file");
    expect(await errorOf("docs/runbook.md", w.projectId)).toBe(
      "docs/runbook.md is not a URL or a file id, and this project serves no folder to read a path from",
    );
  });
});

describe("PKS_FETCH_ALLOW at start", () => {
  it("a malformed entry stops the app from starting, naming the entry", async () => {
    await expect(createTestWorld({ env: { PKS_FETCH_ALLOW: "127.0.0.1, not a host" } })).rejects.toThrow(
      'invalid configuration: PKS_FETCH_ALLOW: "not a host" is not a host name, IP address or CIDR block (with an optional :port)',
    );
  });
});

describe("document_ingest with PKS_FETCH_ALLOW empty", () => {
  let w: TestWorld;
  let site: Site;
  beforeAll(async () => {
    site = await startSite((_req, res) => res.end("# Internal\n"));
    w = await createTestWorld({ actions: productActions, env: { PKS_RATE_LIMIT: "100000" } });
  });
  afterAll(async () => {
    await w.close();
    await site.close();
  });

  it("refuses loopback (in every spelling), the metadata address and file: URLs with a clear task error, and no request reaches the server", async () => {
    const p = site.port;
    const hint = "(set PKS_FETCH_ALLOW to allow it)";
    const cases: Array<[string, string]> = [
      [`http://127.0.0.1:${p}/`, `refused to fetch http://127.0.0.1:${p}/: 127.0.0.1 is a loopback address ${hint}`],
      ["http://169.254.169.254/", `refused to fetch http://169.254.169.254/: 169.254.169.254 is a link-local address (the cloud metadata service) ${hint}`],
      [`http://[::ffff:127.0.0.1]:${p}/`, `refused to fetch http://[::ffff:7f00:1]:${p}/: ::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback address ${hint}`],
      [`http://2130706433:${p}/`, `refused to fetch http://127.0.0.1:${p}/: 127.0.0.1 is a loopback address ${hint}`],
      [`http://0x7f.1:${p}/`, `refused to fetch http://127.0.0.1:${p}/: 127.0.0.1 is a loopback address ${hint}`],
      ["file:///etc/passwd", "only http and https URLs can be fetched"],
      ["ftp://127.0.0.1/x", "only http and https URLs can be fetched"],
    ];
    for (const [source, error] of cases) {
      const task = await ingestDocument(w, source);
      expect({ source, status: task.status, error: task.error }).toEqual({ source, status: "failed", error });
    }
    expect(site.requests).toEqual([]);
    const files = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM files");
    expect(files?.n).toBe(0);
  });
});
