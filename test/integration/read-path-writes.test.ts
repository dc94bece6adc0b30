/**
 * A read writes nothing on its way: its rate-limit count is decided in
 * memory and written later in a batch. So a read answers while another
 * connection holds the database's one write lock (a reading's commit, an
 * upload), where it used to wait for the lock and answer 503 once its wait
 * ran out. With a writer thread, the batch is committed there, and the
 * serving connection checkpoints no WAL: a commit on the serving thread
 * (its fsync, and the checkpoint SQLite runs after it) held every request.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/db.js";
import type { Db } from "../../src/store/db.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

describe("reads on the request path", () => {
  let w: TestWorld;
  let other: Db;
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-read-path-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, startWorker: false });
    other = await openDatabase({ url: w.app.deps.config.dbUrl, role: "writer" });
  });
  afterEach(async () => {
    other.close();
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a read answers while another connection holds the write lock", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    // BEGIN IMMEDIATE takes the write lock; the INSERT makes sure it is held until the commit.
    const writer = other.transaction(async (tx) => {
      await tx.execute("INSERT INTO settings (key, value) VALUES ('held', 'x')");
      locked();
      await held;
    });
    await taken;
    try {
      const read = await send(w, `/v1/projects/${w.projectId}/entities?limit=1`, { key: w.keys.viewer });
      expect(read.status).toBe(200);
      // The lease status of a project never ingested into: its lease came with the project, so this read writes nothing either.
      const status = await send(w, `/v1/projects/${w.projectId}/ingest`, { key: w.keys.viewer });
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ leaseId: expect.stringMatching(/^lse_[0-9A-Za-z]{22}$/), state: "idle" });
    } finally {
      release();
      await writer;
    }
    // Once the lock is free the batch is written.
    await w.app.rateLimit.flush();
    const counted = await w.app.deps.db.get<{ n: number }>("SELECT count(*) AS n FROM rate_events WHERE origin <> ''");
    expect(Number(counted?.n)).toBeGreaterThanOrEqual(1);
  }, 30_000);
});

describe("the serving thread's writes with a writer thread", () => {
  let w: TestWorld;
  let dir: string;
  /** Rows the serving thread's write connection has written since it opened. */
  const servingChanges = () => w.app.db.transaction(async (tx) => Number((await tx.get<{ n: number }>("SELECT total_changes() AS n"))?.n));
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-read-path-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db` });
  });
  afterEach(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("counted reads are written by the writer thread, not the serving connection", async () => {
    const before = await servingChanges();
    for (let i = 0; i < 5; i++) expect((await send(w, `/v1/projects/${w.projectId}/entities?limit=1`, { key: w.keys.viewer })).status).toBe(200);
    await w.app.rateLimit.flush();
    const counted = await w.app.deps.db.get<{ n: number }>("SELECT count(*) AS n FROM rate_events WHERE origin <> ''");
    expect(Number(counted?.n)).toBeGreaterThanOrEqual(5);
    expect(await servingChanges()).toBe(before);
  }, 30_000);

  it("the serving connection leaves WAL checkpoints to the writer thread", async () => {
    const pages = await w.app.db.transaction(async (tx) => Number((await tx.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"))?.wal_autocheckpoint));
    expect(pages).toBe(0);
  }, 30_000);
});
