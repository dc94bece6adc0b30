/**
 * A folder sync's batches, an upload, a chunk and a content replacement are committed on the writer
 * thread's connection, not the serving thread's: the serving connection's
 * count of rows written (`total_changes()`, per connection) does not move
 * while they are stored, and everything acknowledged is there. Errors come
 * back from the thread as the same `AppError`.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureLocalProject } from "../../src/access/local-project.js";
import { storeChunk } from "../../src/ingest/accept/chunks.js";
import { ingestBatch } from "../../src/ingest/accept/ingest-batch.js";
import { replaceContent } from "../../src/ingest/accept/replace-content.js";
import { applyFolder } from "../../src/ingest/folder/folder-sync.js";
import { WriterThread } from "../../src/ingest/read/writer/writer-host.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

/** Two full batches of a sync (32 files each) and a part. */
const FILES = 70;

describe("long writes off the serving thread", () => {
  let w: TestWorld;
  let dir: string;
  /** Rows the serving thread's write connection has written since it opened. */
  const servingChanges = () => w.app.db.transaction(async (tx) => Number((await tx.get<{ n: number }>("SELECT total_changes() AS n"))?.n));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-sync-commits-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db` });
    expect(w.app.worker).toBeInstanceOf(WriterThread);
  });
  afterAll(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a folder sync stores its batches without a row written by the serving connection", async () => {
    const { projectId } = await ensureLocalProject(w.app.db, w.root);
    for (let i = 0; i < FILES; i++) {
      const path = join(w.root, `part${i % 7}`, `note${i}.md`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `# Note ${i}\n\nThe ledger settles entry ${i} at the end of the day.\n`);
    }
    const before = await servingChanges();
    const changes = await applyFolder(w.app, projectId, w.root);
    const after = await servingChanges();
    expect(changes.added).toBe(FILES);
    // Before, each batch wrote a chunk and a file row per file, the lease and the version here: 140 rows and more.
    expect(after - before).toBe(0);
    const stored = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM files WHERE project_id = ? AND path LIKE 'part%'", [projectId]);
    expect(Number(stored?.n)).toBe(FILES);
  });

  it("an upload, a chunk and a content replacement are committed by the thread and answered as before", async () => {
    const before = await servingChanges();
    const text = "Refunds go back to the original card within five days.\n".repeat(2000);
    const answer = await ingestBatch({ projectId: w.projectId }, { files: [{ path: "docs/refunds.md", bytes: Buffer.from(text) }] }, w.app.tools);
    expect(answer).toMatchObject({ accepted: [{ path: "docs/refunds.md", status: "queued" }], projectId: w.projectId, version: expect.any(Number) });
    const edited = `${text}Refunds past ninety days go to store credit.\n`;
    const chunkId = `sha256:${createHash("sha256").update(edited).digest("hex")}`;
    await expect(storeChunk({ projectId: w.projectId }, { chunkId, bytes: Buffer.from(edited) }, w.app.tools)).resolves.toEqual({ chunkId, size: edited.length });
    const fileId = answer.accepted[0]!.fileId;
    const moved = await replaceContent({ projectId: w.projectId }, { fileId, chunkId }, w.app.tools);
    expect(moved).toMatchObject({ fileId, path: "docs/refunds.md" });
    expect((await servingChanges()) - before).toBe(0);
    const file = await w.app.db.get<{ chunk_id: string }>("SELECT chunk_id FROM files WHERE file_id = ?", [fileId]);
    expect(file?.chunk_id).toBe(chunkId);
    await expect(replaceContent({ projectId: w.projectId }, { fileId: "fil_none", chunkId }, w.app.tools)).rejects.toMatchObject({ code: "file_not_found", status: 404 });
  });

  it("a refusal in the thread reaches the caller as the same error, and stores nothing", async () => {
    const files = [{ path: "docs/over.md", bytes: Buffer.from("# Over\n\n".repeat(100)) }];
    const refused = ingestBatch({ projectId: w.projectId }, { files, quotaBytes: 10 }, w.app.tools);
    await expect(refused).rejects.toMatchObject({ name: "AppError", code: "quota_exceeded", status: 413 });
    const file = await w.app.db.get("SELECT file_id FROM files WHERE project_id = ? AND path = 'docs/over.md'", [w.projectId]);
    expect(file).toBeUndefined();
  });
});
