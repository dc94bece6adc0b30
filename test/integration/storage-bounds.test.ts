/**
 * Storage bounds on a real database file: replaced bytes and text leave the
 * database file and its WAL, stray uploads are collected after their grace
 * (referenced chunks never), and a call past the project's quota is refused
 * with 413 and stores nothing.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "../../src/core/endpoint.js";
import { AppError } from "../../src/errors.js";
import { ingestBatch, retirePaths } from "../../src/ingest/accept/ingest-batch.js";
import { CHUNK_GRACE_MS, collectChunks } from "../../src/ingest/accept/storage.js";
import { checkpointWal } from "../../src/store/db.js";
import { EMPTY_CHUNK_ID, putChunk } from "../../src/store/files/chunks.js";
import { createTestWorld, fakeClock, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { WriterThread } from "../../src/ingest/read/writer/writer-host.js";
import { runWrite } from "../../src/ingest/accept/batch-writes.js";

/**
 * Two markers: one as written, one a word the full-text index stores as is
 * (lower case, ending in digits so stemming keeps it, sharing no prefix
 * with another term so the index does not abbreviate it). Both are lower
 * case inside a sentence, so the entity spotter names neither: a spotted
 * name lives on as the name of a project-wide entity, which retiring a
 * file's reading does not remove.
 */
const MARKER = "zebra-marker-7f3a9c2e41";
const TOKEN = "quokkamarker9b1d47";
const MARKED = `# Notes\n\nThe old setting was ${MARKER} and ${TOKEN} too.\n\nA kept paragraph.\n`;
const CLEAN = "# Notes\n\nA kept paragraph.\n\nA new paragraph.\n";

const sha = (s: string | Uint8Array) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
const MINUTE = 60_000;

describe("storage bounds", () => {
  let dir: string;
  let dbPath: string;
  let clock: ReturnType<typeof fakeClock>;
  let w: TestWorld;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-storage-"));
    dbPath = join(dir, "pks.db");
    clock = fakeClock();
    w = await createTestWorld({ dbUrl: `file:${dbPath}`, clock });
  });
  afterEach(async () => {
    await w.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const base = () => `/v1/projects/${w.projectId}`;
  const db = () => w.app.deps.db;
  const count = async (sql: string, args: unknown[] = []) => Number((await db().get<{ n: number }>(sql, args as string[]))?.n);
  const chunkIds = async () => (await db().all<{ chunk_id: string }>("SELECT chunk_id FROM chunks ORDER BY chunk_id")).map((r) => r.chunk_id);

  /**
   * Waits until nothing is queued or being read, then checks the lease says
   * so. (Polling the lease would spend the viewer key's 60 requests a minute:
   * the fake clock never moves the rate window on.)
   */
  async function untilRead(): Promise<void> {
    await w.app.worker.whenIdle();
    const lease = (await (await send(w, `${base()}/ingest`, { key: w.keys.viewer })).json()) as { state: string };
    expect(lease.state).toBe("idle");
  }

  async function upload(bytes: string): Promise<string> {
    const chunkId = sha(bytes);
    const res = await send(w, `${base()}/chunks/${chunkId}`, { method: "PUT", key: w.keys.editor, body: bytes });
    expect(res.status).toBe(200);
    return chunkId;
  }

  async function replace(fileId: string, text: string): Promise<void> {
    const chunkId = await upload(text);
    const res = await send(w, `${base()}/files/${fileId}/content`, { method: "PUT", key: w.keys.editor, json: { chunkId } });
    expect(res.status).toBe(200);
  }

  const holdsMarker = (path: string) => {
    if (!existsSync(path)) return false;
    const bytes = readFileSync(path);
    return [MARKER, TOKEN].some((m) => bytes.includes(m));
  };

  it("replaced content leaves the database file and its WAL: chunk deleted, retired text emptied, index purged", async () => {
    const { body } = await ingest(w, [fileEntry("notes.md", MARKED)]);
    const fileId = body.accepted[0]!.fileId;
    await untilRead();
    expect(await count("SELECT count(*) AS n FROM cells WHERE text LIKE ?", [`%${MARKER}%`])).toBe(1);
    expect(await count("SELECT count(*) AS n FROM cells_fts WHERE cells_fts MATCH ?", [TOKEN])).toBeGreaterThan(0);
    await collectChunks(db(), clock());
    expect(holdsMarker(dbPath)).toBe(true); // the check below can see the marker when it is there

    await replace(fileId, CLEAN);
    // The bytes the live reading was read from stay until the new one is committed (its code units may be lines of them).
    expect(await chunkIds()).toContain(sha(MARKED));
    await untilRead();
    expect(await chunkIds()).not.toContain(sha(MARKED));
    const retired = await db().all<{ text: string }>("SELECT text FROM cells WHERE file_id = ? AND retired_at IS NOT NULL", [fileId]);
    expect(retired.map((r) => r.text)).toEqual([""]);
    const faction = await db().all<{ text: string; heading_path: string }>("SELECT text, heading_path FROM factions WHERE file_id = ? AND retired_at IS NOT NULL", [fileId]);
    expect(faction).toEqual([{ text: "", heading_path: "[]" }]);
    expect(await count("SELECT count(*) AS n FROM cells_fts WHERE cells_fts MATCH ?", [TOKEN])).toBe(0);
    await checkpointWal(db());
    // The deleted index rows are only tombstoned: their terms are still in the file until the purge.
    expect(holdsMarker(dbPath)).toBe(true);

    const pass = await collectChunks(db(), clock());
    expect(pass.purged).toBe(true);
    expect(pass.checkpoint?.busy).toBe(false);
    const integrity = await db().all<Record<string, unknown>>("PRAGMA integrity_check");
    expect(integrity.map((r) => Object.values(r)[0])).toEqual(["ok"]);
    await w.app.close();
    expect(holdsMarker(dbPath)).toBe(false);
    expect(holdsMarker(`${dbPath}-wal`)).toBe(false);
  });

  it("a retired file keeps its row and ids but no bytes and no text", async () => {
    const { body } = await ingest(w, [fileEntry("gone.md", MARKED), fileEntry("twin.md", "# Twin\n\nSame bytes elsewhere.\n"), fileEntry("copy.md", "# Twin\n\nSame bytes elsewhere.\n")]);
    await untilRead();
    expect(await retirePaths({ projectId: w.projectId }, ["gone.md", "twin.md"], w.app.tools)).toBe(2);
    const ids = await chunkIds();
    expect(ids).not.toContain(sha(MARKED));
    expect(ids).toContain(sha("# Twin\n\nSame bytes elsewhere.\n")); // copy.md still points at it
    const gone = await db().get<{ status: string; chunk_id: string }>("SELECT status, chunk_id FROM files WHERE file_id = ?", [body.accepted[0]!.fileId]);
    expect(gone).toMatchObject({ status: "retired", chunk_id: EMPTY_CHUNK_ID });
    expect(await count("SELECT count(*) AS n FROM factions WHERE file_id = ? AND (text <> '' OR retired_at IS NULL)", [body.accepted[0]!.fileId])).toBe(0);
    await collectChunks(db(), clock());
    await w.app.close();
    expect(holdsMarker(dbPath)).toBe(false);
    expect(holdsMarker(`${dbPath}-wal`)).toBe(false);
  });

  it("a stray upload is collected after its grace; referenced chunks never; a re-upload renews the grace", async () => {
    const { body } = await ingest(w, [fileEntry("a.md", "# A\n\nFirst.\n"), fileEntry("b.md", "# B\n")]);
    await untilRead();
    await replace(body.accepted[0]!.fileId, "# A\n\nSecond.\n");
    await untilRead();
    expect(await chunkIds()).not.toContain(sha("# A\n\nFirst.\n"));
    const stray = await upload("never referenced");
    const renewed = await upload("uploaded twice");

    clock.advance(CHUNK_GRACE_MS - MINUTE);
    expect(await collectChunks(db(), clock())).toMatchObject({ chunks: 0, bytes: 0 });
    await upload("uploaded twice");
    clock.advance(2 * MINUTE);
    expect(await collectChunks(db(), clock())).toMatchObject({ chunks: 1, bytes: "never referenced".length });
    expect(await chunkIds()).toEqual([renewed, sha("# A\n\nSecond.\n"), sha("# B\n")].sort());
    expect(await chunkIds()).not.toContain(stray);

    clock.advance(CHUNK_GRACE_MS);
    expect(await collectChunks(db(), clock())).toMatchObject({ chunks: 1 });
    clock.advance(100 * CHUNK_GRACE_MS);
    expect(await collectChunks(db(), clock())).toMatchObject({ chunks: 0 });
    expect(await chunkIds()).toEqual([sha("# A\n\nSecond.\n"), sha("# B\n")].sort());
  });

  it("a replacement releases ingested bytes at once, bytes uploaded within the grace after it", async () => {
    const { body } = await ingest(w, [fileEntry("a.md", "# A\n")]);
    const fileId = body.accepted[0]!.fileId;
    await replace(fileId, "# A\n\nNext.\n");
    expect(await chunkIds()).toEqual([sha("# A\n\nNext.\n")]);
    await replace(fileId, "# A\n\nThird.\n");
    // Just uploaded: another replacement may be on its way to naming these bytes.
    expect(await chunkIds()).toEqual([sha("# A\n\nNext.\n"), sha("# A\n\nThird.\n")].sort());
    clock.advance(CHUNK_GRACE_MS + MINUTE);
    expect(await collectChunks(db(), clock())).toMatchObject({ chunks: 1 });
    expect(await chunkIds()).toEqual([sha("# A\n\nThird.\n")]);
  });

  it("413 quota_exceeded past the quota, and nothing of the call is stored", async () => {
    await w.close();
    w = await createTestWorld({ dbUrl: `file:${join(dir, "quota.db")}`, clock, env: { PKS_PROJECT_QUOTA_BYTES: "200" } });
    await ingest(w, [fileEntry("small.md", "# Small\n")]);
    const before = { chunks: await chunkIds(), files: await count("SELECT count(*) AS n FROM files"), version: await count("SELECT corpus_version AS n FROM projects WHERE project_id = ?", [w.projectId]) };
    const big = "x".repeat(300);
    const res = await send(w, `${base()}/ingest`, { method: "POST", key: w.keys.editor, json: { files: [fileEntry("big.md", big)] } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { status: 413, code: "quota_exceeded", message: "project storage quota exceeded; remove files or raise the quota" } });
    const fits = await send(w, `${base()}/ingest`, { method: "POST", key: w.keys.editor, json: { files: [fileEntry("fits.md", "# Fits\n")] } });
    expect(fits.status).toBe(200);
    const upload = await send(w, `${base()}/chunks/${sha(big)}`, { method: "PUT", key: w.keys.editor, body: big });
    expect(upload.status).toBe(413);
    const after = await count("SELECT count(*) AS n FROM files");
    expect(after).toBe(before.files + 1);

    await expect(ingestBatch({ projectId: w.projectId }, { files: [{ path: "two.md", bytes: Buffer.from(big) }], quotaBytes: 250 }, w.app.tools)).rejects.toMatchObject({ code: "quota_exceeded" });
    const now = new Date(clock()).toISOString();
    await expect(putChunk(db(), w.projectId, sha(big), Buffer.from(big), now, 250)).rejects.toBeInstanceOf(AppError);
    expect(await chunkIds()).not.toContain(sha(big));
    expect(await count("SELECT count(*) AS n FROM files WHERE path IN ('big.md', 'two.md')")).toBe(0);
    expect(await count("SELECT corpus_version AS n FROM projects WHERE project_id = ?", [w.projectId])).toBe(before.version + 1);

    // A project over a lowered quota may still replace bytes by fewer, not add any.
    const fewer = { files: [{ path: "small.md", bytes: Buffer.from("#\n") }], quotaBytes: 1 };
    await expect(ingestBatch({ projectId: w.projectId }, fewer, w.app.tools)).resolves.toMatchObject({ accepted: [{ path: "small.md" }] });
    const more = { files: [{ path: "more.md", bytes: Buffer.from("##\n") }], quotaBytes: 1 };
    await expect(ingestBatch({ projectId: w.projectId }, more, w.app.tools)).rejects.toMatchObject({ code: "quota_exceeded" });
    // Bytes already stored cost nothing: uploading them again passes a full quota.
    await putChunk(db(), w.projectId, sha("#\n"), Buffer.from("#\n"), now, 1);
  });
});

describe("the scheduled storage pass on a served file", () => {
  it("runs on the writer thread's connection: a stray chunk past its grace is collected there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pks-collect-"));
    const w = await createTestWorld({ dbUrl: `file:${join(dir, "pks.db")}` });
    try {
      const worker = w.app.worker;
      expect(worker).toBeInstanceOf(WriterThread);
      const old = new Date(Date.now() - 2 * CHUNK_GRACE_MS).toISOString();
      await w.app.deps.db.execute("INSERT INTO chunks (project_id, chunk_id, size, bytes, created_at) VALUES (?, 'stray', 3, x'616263', ?)", [w.projectId, old]);
      await runWrite(w.app.tools.writes, "storage.collect", { nowMs: Date.now() });
      expect(await w.app.deps.db.get("SELECT chunk_id FROM chunks WHERE chunk_id = 'stray'")).toBeUndefined();
    } finally {
      await w.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
