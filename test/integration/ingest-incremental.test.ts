import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { markdownReader } from "../../src/readers/markdown/markdown-reader.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest, liveCells, liveFactions } from "../support/ingest-helpers.js";

/** A 2,000-line Markdown document: 100 sections of a heading and paragraphs. */
function bigDocument(): string[] {
  const lines: string[] = [];
  for (let s = 0; lines.length < 2000; s++) {
    lines.push(`## Section ${s}`, "");
    for (let p = 0; p < 4 && lines.length < 1996; p++) {
      lines.push(`Paragraph ${p} of section ${s} states fact ${s * 10 + p}. It adds a second sentence.`, "");
    }
  }
  return lines.slice(0, 2000);
}

const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;

describe("incremental re-ingestion", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  it("a one-line edit in a 2,000-line file re-derives only the faction that changed", async () => {
    const lines = bigDocument();
    const first = await ingest(w, [fileEntry("big.md", lines.join("\n"))]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    const before = await liveFactions(w, fileId);
    const cellsBefore = await liveCells(w, fileId);
    expect(before.length).toBeGreaterThan(400);

    const target = lines.findIndex((l) => l.startsWith("Paragraph 2 of section 50 "));
    lines[target] = "Paragraph 2 of section 50 now states something else entirely.";
    await ingest(w, [fileEntry("big.md", lines.join("\n"))]);
    await w.app.worker.whenIdle();
    const after = await liveFactions(w, fileId);
    const cellsAfter = await liveCells(w, fileId);

    const beforeIds = new Set(before.map((f) => f.faction_id));
    const added = after.filter((f) => !beforeIds.has(f.faction_id));
    const afterIds = new Set(after.map((f) => f.faction_id));
    const retired = before.filter((f) => !afterIds.has(f.faction_id));
    expect(added.map((f) => f.line_start)).toEqual([target + 1]);
    expect(retired).toHaveLength(1);
    expect(after).toHaveLength(before.length);

    const keptCells = cellsAfter.filter((c) => cellsBefore.some((b) => b.cell_id === c.cell_id));
    expect(cellsAfter.length - keptCells.length).toBe(1);
    expect(cellsBefore.length - keptCells.length).toBe(2);
  });

  it("inserting lines keeps every faction and cell, and moves their anchors", async () => {
    const text = "# Title\n\nFirst paragraph.\n\n## Part\n\nSecond paragraph.\n";
    const first = await ingest(w, [fileEntry("doc.md", text)]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    const before = await liveFactions(w, fileId);
    const cellsBefore = await liveCells(w, fileId);
    await ingest(w, [fileEntry("doc.md", `\n\n\n${text}`)]);
    await w.app.worker.whenIdle();
    const after = await liveFactions(w, fileId);
    expect(after.map((f) => f.faction_id)).toEqual(before.map((f) => f.faction_id));
    expect(after.map((f) => f.line_start)).toEqual(before.map((f) => f.line_start! + 3));
    expect((await liveCells(w, fileId)).map((c) => c.cell_id)).toEqual(cellsBefore.map((c) => c.cell_id));
  });

  it("a renamed heading gives its section's kept cells the new parent", async () => {
    const first = await ingest(w, [fileEntry("doc.md", "# Old title\n\nA claim.\n")]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    const [, claim] = await liveCells(w, fileId);
    await ingest(w, [fileEntry("doc.md", "# New title\n\nA claim.\n")]);
    await w.app.worker.whenIdle();
    const [heading, claimAfter] = await liveCells(w, fileId);
    expect(claimAfter!.cell_id).toBe(claim!.cell_id);
    expect(claimAfter!.parent_cell_id).toBe(heading!.cell_id);
    expect(heading!.text).toBe("New title");
  });
});

describe("chunks and content replacement", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  const base = (w: TestWorld) => `/v1/projects/${w.projectId}`;

  it("missing → upload → replace: same fileId, queued, re-read incrementally", async () => {
    const first = await ingest(w, [fileEntry("doc.md", "# Doc\n\nOld text.\n")]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    const text = "# Doc\n\nNew text.\n";
    const chunkId = sha(text);
    const missing = await send(w, `${base(w)}/chunks/missing`, { method: "POST", key: w.keys.editor, json: { chunkIds: [chunkId] } });
    expect(await missing.json()).toEqual({ missing: [chunkId] });
    const wrong = await send(w, `${base(w)}/chunks/${sha("other")}`, { method: "PUT", key: w.keys.editor, body: text });
    expect(wrong.status).toBe(400);
    const put = await send(w, `${base(w)}/chunks/${chunkId}`, { method: "PUT", key: w.keys.editor, body: text });
    expect(await put.json()).toEqual({ chunkId, size: Buffer.byteLength(text) });
    const none = await send(w, `${base(w)}/chunks/missing`, { method: "POST", key: w.keys.editor, json: { chunkIds: [chunkId] } });
    expect(await none.json()).toEqual({ missing: [] });

    const res = await send(w, `${base(w)}/files/${fileId}/content`, { method: "PUT", key: w.keys.editor, json: { chunkId, fileSize: Buffer.byteLength(text) } });
    expect(res.status).toBe(200);
    const file = (await res.json()) as Record<string, unknown>;
    expect(file).toMatchObject({ fileId, status: "queued", name: "doc.md", filepath: "", ext: "md", fileType: "document", chunkIds: [chunkId], fileSize: Buffer.byteLength(text) });
    await w.app.worker.whenIdle();
    expect((await liveCells(w, fileId)).map((c) => c.text)).toEqual(["Doc", "New text."]);
  });

  it("400 chunk is not stored; 400 file is not editable; 404 file not found; 403 for a viewer", async () => {
    const first = await ingest(w, [fileEntry("doc.md", "# Doc\n"), fileEntry("logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]))]);
    const [doc, png] = first.body.accepted;
    const put = (fileId: string, json: unknown, key = w.keys.editor) => send(w, `${base(w)}/files/${fileId}/content`, { method: "PUT", key, json });
    const notStored = await put(doc!.fileId, { chunkId: sha("never uploaded") });
    expect(await notStored.json()).toEqual({ error: { status: 400, code: "chunk_not_stored", message: "chunk is not stored" } });
    const media = await put(png!.fileId, { chunkId: sha("x") });
    expect(await media.json()).toEqual({ error: { status: 400, code: "file_not_editable", message: "file is not editable" } });
    const missing = await put("fil_nope", { chunkId: sha("x") });
    expect(await missing.json()).toEqual({ error: { status: 404, code: "file_not_found", message: "file not found" } });
    const viewer = await put(doc!.fileId, { chunkId: sha("x") }, w.keys.viewer);
    expect(viewer.status).toBe(403);
    const otherProject = await send(w, `/v1/projects/${w.otherProjectId}/files/${doc!.fileId}/content`, {
      method: "PUT",
      key: w.keys.outsider,
      json: { chunkId: sha("x") },
    });
    expect(await otherProject.json()).toEqual({ error: { status: 404, code: "file_not_found", message: "file not found" } });
  });
});

describe("the reading worker", () => {
  it("one file's failure never stops the others; the failed file says why", async () => {
    const w = await createTestWorld();
    // Readers run in threads: a file the Markdown reader refuses (nesting past its cap) stands for any reader error.
    const deep = `${"> ".repeat(100)}too deep\n`;
    const { body } = await ingest(w, [fileEntry("a.md", "# A\n"), fileEntry("bad.md", deep), fileEntry("c.md", "# C\n")]);
    await w.app.worker.whenIdle();
    const rows = await w.app.deps.db.all<{ path: string; status: string; error: string | null }>("SELECT path, status, error FROM files ORDER BY path");
    expect(rows).toEqual([
      { path: "a.md", status: "ready", error: null },
      { path: "bad.md", status: "failed", error: "document nests deeper than 64 levels" },
      { path: "c.md", status: "ready", error: null },
    ]);
    expect(body.accepted).toHaveLength(3);
    await w.close();
  });

  it("a restart resumes queued and interrupted files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pks-restart-"));
    const dbUrl = `file:${dir}/pks.db`;
    const held = await createTestWorld({ dbUrl, startWorker: false });
    await ingest(held, [fileEntry("a.md", "# A\n"), fileEntry("b.md", "# B\n"), fileEntry("c.md", "# C\n")]);
    // One file was being read when the process stopped.
    await held.app.deps.db.execute("UPDATE files SET status = 'reading' WHERE path = 'b.md'");
    await held.app.close();

    const again = await createApp(loadConfig({ root: held.root, db: dbUrl }, { PKS_LOG: "silent" }));
    await again.worker.whenIdle();
    const rows = await again.deps.db.all<{ status: string; reads: number }>("SELECT status, reads FROM files");
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === "ready" && Number(r.reads) === 1)).toBe(true);
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
