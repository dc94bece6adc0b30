/**
 * Query threads (src/store/query-threads.ts): the long answers' reads run
 * on threads with read-only connections of their own to the database file.
 * They answer as the database does (rows, errors), writes still go through
 * the database's lane, no more threads run than asked, the serving thread's
 * event loop runs while a thread works, and an app on a file gives
 * `memory_query` and `code_context_pack` the threads.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onLog, setLogOutput } from "../../src/logger.js";
import { workerEntryUrl } from "../../src/ingest/read/pool/spawn-reader.js";
import { memoryQuery } from "../../src/retrieve/memory/memory-query.js";
import { openDatabase } from "../../src/store/db.js";
import type { Db, Queryable } from "../../src/store/db.js";
import { QUERY_THREAD_ENTRY, QueryThreads } from "../../src/store/query-threads.js";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import { until } from "../support/until.js";
import type { TestWorld } from "../support/test-app.js";

/** A statement that keeps a connection busy for about a second. */
const SLOW = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4000000) SELECT count(*) AS n FROM c";

describe("query threads", () => {
  let dir: string;
  let db: Db;
  let threads: QueryThreads;
  let q: Queryable;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-query-threads-"));
    db = await openDatabase({ url: `file:${join(dir, "t.db")}` });
    await db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT, bytes BLOB, big INTEGER)");
    await db.execute("INSERT INTO t VALUES (1, 'one', 1.5, NULL, x'00ff10', 9007199254740993), (2, 'two', -2.25, 'n', x'', 7)");
    threads = new QueryThreads({ path: join(dir, "t.db"), threads: 2, entry: workerEntryUrl(QUERY_THREAD_ENTRY) });
    q = threads.queryable(db);
  });

  afterAll(async () => {
    await threads.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers reads with the rows the database answers, arguments of every kind bound", async () => {
    const sql = "SELECT id, name, score, note, bytes, CAST(big AS TEXT) AS big FROM t WHERE id >= ? AND name <> ? ORDER BY id";
    const args = [1n, "zero"];
    const onThreads = await q.all(sql, args);
    expect(onThreads).toEqual(await db.all(sql, args));
    expect(onThreads.map((r) => r.big)).toEqual(["9007199254740993", "7"]);
    expect(await q.get("SELECT name FROM t WHERE bytes = ?", [new Uint8Array([0, 255, 16])])).toEqual({ name: "one" });
    expect(await q.get("SELECT name FROM t WHERE id = 99")).toBeUndefined();
    // The first statements ran on the database while the first thread started; once it is ready, it answers the same.
    expect(threads.running).toBe(1);
    await until(async () => threads.ready, (n) => n === 1, 20_000, "a ready thread");
    expect(await q.all(sql, args)).toEqual(onThreads);
  });

  it("sends a statement that could write to the database's lane, and reads see it at once", async () => {
    const written = await q.execute("INSERT INTO t (id, name) VALUES (3, 'three')");
    expect(written.rowsAffected).toBe(1);
    expect(await q.get("SELECT name FROM t WHERE id = 3")).toEqual({ name: "three" });
    await q.execute("DELETE FROM t WHERE id = 3");
    expect(await q.get("SELECT count(*) AS n FROM t")).toEqual({ n: 2 });
  });

  it("fails a bad statement as the database fails it: the same error, no SQL in its message", async () => {
    const error = async (on: Queryable) => on.all("SELECT nope FROM t").then(() => undefined, (e: unknown) => e as Error & { code?: string; status?: number });
    const [threaded, direct] = [await error(q), await error(db)];
    expect(threaded).toBeDefined();
    expect({ name: threaded!.name, code: threaded!.code, status: threaded!.status, message: threaded!.message }).toEqual({
      name: direct!.name,
      code: direct!.code,
      status: direct!.status,
      message: direct!.message,
    });
    expect(threaded!.message).not.toContain("nope");
  });

  it("runs statements at once on at most the threads asked, while the serving thread's event loop goes on", async () => {
    // The first thread busy, a second starts.
    await Promise.all([q.get(SLOW), q.get("SELECT 1 AS x")]);
    await until(async () => threads.ready, (n) => n === 2, 20_000, "two ready threads");
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const slow = await Promise.all([q.get(SLOW), q.get(SLOW), q.get(SLOW)]);
    clearInterval(timer);
    expect(slow).toEqual([{ n: 4000000 }, { n: 4000000 }, { n: 4000000 }]);
    expect(threads.running).toBe(2);
    // On the serving thread's own connection the loop would not have turned once during a statement.
    expect(ticks).toBeGreaterThan(20);
  });

  it("after close, runs every statement on the database and no thread", async () => {
    const own = new QueryThreads({ path: join(dir, "t.db"), threads: 1, entry: workerEntryUrl(QUERY_THREAD_ENTRY) });
    const handle = own.queryable(db);
    expect(await handle.get("SELECT count(*) AS n FROM t")).toEqual({ n: 2 });
    expect(own.running).toBe(1);
    await until(async () => own.ready, (n) => n === 1, 20_000, "a ready thread");
    expect(await handle.get("SELECT count(*) AS n FROM t")).toEqual({ n: 2 });
    await own.close();
    expect(own.running).toBe(0);
    expect(await handle.get("SELECT count(*) AS n FROM t")).toEqual({ n: 2 });
    expect(own.running).toBe(0);
  });

  it("reads on the database when a thread cannot open it, and starts no other", async () => {
    const lost = new QueryThreads({ path: join(dir, "missing", "t.db"), threads: 2, entry: workerEntryUrl(QUERY_THREAD_ENTRY) });
    const handle = lost.queryable(db);
    const said: string[] = [];
    setLogOutput("silent");
    const stop = onLog((r) => said.push(String(r.msg)));
    try {
      expect(await handle.get("SELECT count(*) AS n FROM t")).toEqual({ n: 2 });
      await until(async () => lost.running, (n) => n === 0, 20_000, "the failed thread gone");
      expect(await handle.get("SELECT count(*) AS n FROM t")).toEqual({ n: 2 });
      expect(lost.running).toBe(0);
      expect(said).toEqual(["a query thread could not open the database; answers read on the serving thread"]);
    } finally {
      stop();
      await lost.close();
    }
  });

  it("refuses a pool of no thread", () => {
    expect(() => new QueryThreads({ path: join(dir, "t.db"), threads: 0, entry: workerEntryUrl(QUERY_THREAD_ENTRY) })).toThrow(RangeError);
  });
});

describe("an app on a database file", () => {
  let dir: string;
  let w: TestWorld;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-query-app-"));
    w = await createTestWorld({ actions, dbUrl: `file:${join(dir, "pks.db")}`, clock: () => Date.now() });
    const docs = [
      fileEntry("billing.md", "# Billing\n\nInvoices are issued on the first day of each month. Late invoices incur a fee.\n"),
      fileEntry("src/cache.ts", "/** Drops stale entries when an update lands. */\nexport function invalidateCache(key: string): void {\n  store.delete(key);\n}\n"),
    ];
    expect((await ingest(w, docs)).res.status).toBe(200);
    await w.app.worker.whenIdle();
  });

  afterAll(async () => {
    await w.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers memory_query through the query threads, as the database answers it", async () => {
    expect(w.app.tools.queries).not.toBe(w.app.db);
    // The first statements run on the database while a thread starts; then a slow one leaves the event loop turning.
    const offThread = async () => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await w.app.tools.queries.get(SLOW);
      clearInterval(timer);
      return ticks;
    };
    await until(offThread, (ticks) => ticks > 10, 30_000, "a statement answered off the serving thread");
    const input = { query: "when are invoices issued and how is the cache invalidated", budget: 2000 };
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input } });
    expect(res.status).toBe(200);
    const answered = ((await res.json()) as { result: MemoryQueryAnswer }).result;
    const direct = await memoryQuery(w.app.db, { projectIds: [w.projectId] }, input, w.app.tools);
    expect(answered.cells.length).toBeGreaterThan(0);
    expect({ cells: answered.cells, declarations: answered.declarations, files: answered.files, used: answered.used }).toEqual({
      cells: direct.cells,
      declarations: direct.declarations,
      files: direct.files,
      used: direct.used,
    });
  });

  it("reads on the database itself with PKS_QUERY_THREADS=0", async () => {
    const off = await createTestWorld({ dbUrl: `file:${join(dir, "off.db")}`, env: { PKS_QUERY_THREADS: "0" } });
    try {
      expect(off.app.tools.queries).toBe(off.app.db);
    } finally {
      await off.close();
    }
  });
});
