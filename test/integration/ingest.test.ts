import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest, liveCells, liveFactions } from "../support/ingest-helpers.js";
import { getChunkBytes } from "../../src/store/files/chunks.js";

const README = `# Payments

The payments service settles card charges. It retries failed captures twice.

## Refunds

- Refunds go back to the original card.
- Partial refunds are allowed.
`;

describe("POST /v1/projects/{projectId}/ingest", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  it("accepts files, queues them, and reads them into factions and cells with line anchors", async () => {
    const { res, body } = await ingest(w, [fileEntry("docs/README.md", README), fileEntry("notes.txt", "One fact. Another fact.\n")]);
    expect(res.status).toBe(200);
    expect(body.accepted.map((a) => [a.path, a.status])).toEqual([["docs/README.md", "queued"], ["notes.txt", "queued"]]);
    expect(body.refused).toEqual([]);
    expect(body.leaseId).toMatch(/^lse_/);
    expect(body.projectId).toBe(w.projectId);
    expect(body.version).toBe(1);
    await w.app.worker.whenIdle();
    const readme = body.accepted[0]!.fileId;
    const factions = await liveFactions(w, readme);
    expect(factions.map((f) => [f.faction_type, f.line_start, f.line_end])).toEqual([
      ["heading", 1, 1],
      ["text", 3, 3],
      ["heading", 5, 5],
      ["list", 7, 8],
    ]);
    const cells = await liveCells(w, readme);
    expect(cells.map((c) => c.text)).toEqual([
      "Payments",
      "The payments service settles card charges.",
      "It retries failed captures twice.",
      "Refunds",
      "Refunds go back to the original card.",
      "Partial refunds are allowed.",
    ]);
    const [title, , , refunds, item] = cells;
    expect(refunds!.parent_cell_id).toBe(title!.cell_id);
    expect(item!.parent_cell_id).toBe(refunds!.cell_id);
    const status = await w.app.deps.db.get<{ status: string }>("SELECT status FROM files WHERE file_id = ?", [readme]);
    expect(status?.status).toBe("ready");
  });

  it("refuses bad files one by one and goes on with the rest", async () => {
    const aws = `aws_access_key_id = AKIA${"Q3ZT7WJ4MNXK2PLD"}\n`;
    const { res, body } = await ingest(w, [
      fileEntry("/etc/passwd", "x"),
      fileEntry("a/../../b.txt", "x"),
      fileEntry("a//b.txt", "x"),
      fileEntry("nul\u0000.txt", "x"),
      { path: "bad64.txt", content: "!!!not base64!!!" },
      { path: "missing.txt" },
      fileEntry(".env", "SECRET=1\n"),
      fileEntry("config/aws.ini", aws),
      fileEntry("config/aws-allowed.ini", aws, { includeSecret: true }),
      fileEntry("./ok/fine.md", "# Fine\n"),
      fileEntry("ok/fine.md", "# Twice\n"),
    ]);
    expect(res.status).toBe(200);
    expect(body.accepted.map((a) => a.path)).toEqual(["config/aws-allowed.ini", "ok/fine.md"]);
    const reasons = Object.fromEntries(body.refused.map((r) => [r.path, r.reason]));
    expect(reasons["/etc/passwd"]).toBe("path is absolute");
    expect(reasons["a/../../b.txt"]).toBe("path contains '..'");
    expect(reasons["a//b.txt"]).toBe("path has an empty segment");
    expect(reasons["nul\u0000.txt"]).toBe("path contains a NUL byte");
    expect(reasons["bad64.txt"]).toBe("content is not valid base64");
    expect(reasons["missing.txt"]).toBe("content is missing");
    expect(reasons[".env"]).toMatch(/^looks like a credential \(rule env-file\)/);
    expect(reasons["config/aws.ini"]).toMatch(/^looks like a credential \(rule aws-access-key-id, line 1\)/);
    expect(reasons["config/aws.ini"]).not.toContain("Q3ZT7WJ4MNXK2PLD");
    expect(reasons["ok/fine.md"]).toBe("path appears more than once in this call");
    // A file refused for its content is listed as failed with the reason and no bytes; one refused for how it was sent is not a file.
    const stored = await w.app.deps.db.all<{ path: string; status: string; error: string | null; file_size: number }>(
      "SELECT path, status, error, file_size FROM files ORDER BY path",
    );
    const shown = (f: (typeof stored)[number]) => [f.path, f.status === "failed" ? f.error === reasons[f.path] : "read", Number(f.file_size)];
    expect(stored.map(shown)).toEqual([
      [".env", true, 0],
      ["config/aws-allowed.ini", "read", aws.length],
      ["config/aws.ini", true, 0],
      ["ok/fine.md", "read", 7],
    ]);
    // Chunks may be stored deflated: each is read back as the store gives it.
    const chunkIds = await w.app.deps.db.all<{ chunk_id: string }>("SELECT chunk_id FROM chunks WHERE project_id = ?", [w.projectId]);
    const texts = await Promise.all(chunkIds.map(async (c) => Buffer.from((await getChunkBytes(w.app.deps.db, w.projectId, c.chunk_id))!).toString("latin1")));
    expect(texts.filter((t) => t.includes("SECRET=1") || t.includes("Q3ZT7WJ4MNXK2PLD"))).toHaveLength(1);
  });

  it("400 this call carries no files; 400 invalid request body; 413 over 24 MiB while streaming", async () => {
    for (const json of [{}, { files: [] }, { files: null }]) {
      const res = await send(w, `/v1/projects/${w.projectId}/ingest`, { method: "POST", key: w.keys.editor, json });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { status: 400, code: "no_files", message: "this call carries no files" } });
    }
    const notArray = await send(w, `/v1/projects/${w.projectId}/ingest`, { method: "POST", key: w.keys.editor, json: { files: "a" } });
    expect(((await notArray.json()) as { error: { message: string } }).error.message).toBe("invalid request body");
    const big = 25_165_824 + 1;
    const stream = new ReadableStream({
      start(c) {
        const piece = new Uint8Array(1 << 20).fill(0x61);
        for (let sent = 0; sent < big; sent += piece.length) c.enqueue(piece.subarray(0, Math.min(piece.length, big - sent)));
        c.close();
      },
    });
    const res = await send(w, `/v1/projects/${w.projectId}/ingest`, {
      method: "POST",
      key: w.keys.editor,
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { status: 413, code: "request_too_large", message: "this request was too large to read; send fewer files at a time" },
    });
  });

  it("403 editor access required for a viewer; 404 for a non-member; nothing is stored", async () => {
    const viewer = await ingest(w, [fileEntry("a.md", "# A\n")], w.keys.viewer);
    expect(viewer.res.status).toBe(403);
    expect(viewer.body).toEqual({ error: { status: 403, code: "editor_access_required", message: "editor access required" } });
    const outsider = await ingest(w, [fileEntry("a.md", "# A\n")], w.keys.outsider);
    expect(outsider.res.status).toBe(404);
    expect(await w.app.deps.db.get("SELECT * FROM files")).toBeUndefined();
  });

  it("the same path again keeps its fileId and retires the previous reading", async () => {
    const first = await ingest(w, [fileEntry("a.md", "# A\n\nOld claim.\n")]);
    await w.app.worker.whenIdle();
    const second = await ingest(w, [fileEntry("a.md", "# A\n\nNew claim.\n")]);
    expect(second.body.accepted[0]!.fileId).toBe(first.body.accepted[0]!.fileId);
    expect(second.body.version).toBe(first.body.version + 1);
    expect(second.body.leaseId).toBe(first.body.leaseId);
    await w.app.worker.whenIdle();
    const cells = await liveCells(w, first.body.accepted[0]!.fileId);
    expect(cells.map((c) => c.text)).toEqual(["A", "New claim."]);
    const retired = await w.app.deps.db.all<{ text: string }>("SELECT text FROM cells WHERE retired_at IS NOT NULL");
    // The retired cell keeps its id and anchors; its text is purged, so replaced content leaves nothing behind.
    expect(retired.map((r) => r.text)).toEqual([""]);
  });

  it("one lease per project: its state and counts are readable", async () => {
    const { body } = await ingest(w, [fileEntry("a.md", "# A\n"), fileEntry("b.md", "# B\n")], w.keys.editor, { intent: "first docs" });
    await w.app.worker.whenIdle();
    const byId = await send(w, `/v1/projects/${w.projectId}/ingest/${body.leaseId}`, { key: w.keys.viewer });
    const lease = await byId.json();
    expect(lease).toMatchObject({
      leaseId: body.leaseId,
      projectId: w.projectId,
      state: "idle",
      version: 1,
      files: { queued: 0, reading: 0, ready: 2, failed: 0 },
      intent: "first docs",
    });
    const current = await send(w, `/v1/projects/${w.projectId}/ingest`, { key: w.keys.viewer });
    expect(await current.json()).toEqual(lease);
    const wrong = await send(w, `/v1/projects/${w.projectId}/ingest/lse_nope`, { key: w.keys.viewer });
    expect(wrong.status).toBe(404);
  });

  it("20 parallel ingests: all accepted, one leaseId, every file read exactly once", async () => {
    const calls = Array.from({ length: 20 }, (_, i) =>
      ingest(w, [fileEntry(`batch${i}/a.md`, `# A${i}\n\nClaim ${i}.\n`), fileEntry(`batch${i}/b.txt`, `Note ${i}.\n`)]),
    );
    const answers = await Promise.all(calls);
    expect(answers.every((a) => a.res.status === 200 && a.body.accepted.length === 2)).toBe(true);
    expect(new Set(answers.map((a) => a.body.leaseId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.version)).size).toBe(20);
    await w.app.worker.whenIdle();
    const reads = await w.app.deps.db.all<{ reads: number; status: string }>("SELECT reads, status FROM files");
    expect(reads).toHaveLength(40);
    expect(reads.every((r) => Number(r.reads) === 1 && r.status === "ready")).toBe(true);
  });
});
