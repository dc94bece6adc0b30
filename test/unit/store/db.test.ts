import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../../src/errors.js";
import { openDatabase } from "../../../src/store/db.js";
import { insertRows } from "../../../src/store/insert-rows.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";

describe("the store", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pks-db-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("opens a local file with WAL, synchronous=FULL and foreign keys, and asserts them", async () => {
    const db = await openDatabase({ url: `file:${join(dir, "nested", "pks.db")}` });
    expect(db.kind).toBe("file");
    expect((await db.get<{ journal_mode: string }>("PRAGMA journal_mode"))?.journal_mode).toBe("wal");
    expect(Number((await db.get<{ synchronous: number }>("PRAGMA synchronous"))?.synchronous)).toBe(2);
    expect(Number((await db.get<{ journal_size_limit: number }>("PRAGMA journal_size_limit"))?.journal_size_limit)).toBe(1024 * 1024);
    expect(Number((await db.get<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint"))?.wal_autocheckpoint)).toBe(256);
    expect(Number((await db.get<{ foreign_keys: number }>("PRAGMA foreign_keys"))?.foreign_keys)).toBe(1);
    // Still on after a transaction handed the connection back.
    await db.transaction(async (tx) => tx.execute("SELECT 1"));
    expect(Number((await db.get<{ foreign_keys: number }>("PRAGMA foreign_keys"))?.foreign_keys)).toBe(1);
    db.close();
  });

  it("closing copies the WAL in and truncates it, though another connection stays open", async () => {
    const path = join(dir, "pks.db");
    const other = new Database(path);
    const db = await openDatabase({ url: `file:${path}` });
    await db.execute("CREATE TABLE t (x TEXT)");
    await db.transaction(async (tx) => insertRows(tx, "t", ["x"], Array.from({ length: 2000 }, (_, i) => [`row ${i}`.repeat(20)])));
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(100_000);
    db.close();
    db.close(); // a second close is harmless
    expect(statSync(`${path}-wal`).size).toBe(0);
    expect(Number((other.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n)).toBe(2000);
    other.close();
  });

  it("applies migrations in order, once, recording each", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const all = loadMigrations();
    expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
    expect(await migrate(db)).toEqual(all.map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
    const rows = await db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((r) => Number(r.version))).toEqual(all.map((m) => m.version));
    db.close();
  });

  it("a failing migration leaves nothing behind", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await expect(
      migrate(db, [{ version: 1, name: "0001-bad", sql: "CREATE TABLE t (a INTEGER); INSERT INTO nowhere VALUES (1);" }]),
    ).rejects.toBeInstanceOf(AppError);
    expect(await db.get("SELECT name FROM sqlite_master WHERE name = 't'")).toBeUndefined();
    expect(await db.get("SELECT * FROM schema_migrations")).toBeUndefined();
    db.close();
  });

  it("transactions are all or nothing, and serialize with other statements", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)");
    await expect(
      db.transaction(async (tx) => {
        await tx.execute("INSERT INTO t VALUES (1)");
        await tx.execute("INSERT INTO t VALUES (1)");
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await db.all("SELECT * FROM t")).toEqual([]);
    const writes = Array.from({ length: 50 }, (_, i) =>
      i % 2 ? db.transaction(async (tx) => tx.execute("INSERT INTO t VALUES (?)", [i])) : db.execute("INSERT INTO t VALUES (?)", [i]),
    );
    await Promise.all(writes);
    expect(Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM t"))?.n)).toBe(50);
    db.close();
  });

  it("maps driver errors at the boundary: no SQL text escapes", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const err = await db.execute("SELEC broken").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe("internal error");
    db.close();
  });

  it("reads and writes every value kind through the local binding as the client did", async () => {
    const db = await openDatabase({ url: `file:${join(dir, "values.db")}` });
    await db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, n TEXT)");
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const inserted = await db.execute("INSERT INTO v (i, r, t, b, n) VALUES (?, ?, ?, ?, ?)", [true, 1.5, "é ✓ x", bytes, null]);
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(1n);
    // A lone blob argument, and blobs given as an ArrayBuffer or a view into a larger buffer.
    await db.execute("INSERT INTO v (b) VALUES (?)", [Buffer.from("lone")]);
    await db.execute("INSERT INTO v (b) VALUES (?)", [bytes.buffer]);
    await db.execute("INSERT INTO v (b) VALUES (?)", [new Uint8Array([9, 8, 7, 6]).subarray(1, 3)]);
    const rows = await db.all<{ i: number | null; r: number | null; t: string | null; b: Uint8Array | null; n: null }>("SELECT i, r, t, b, n FROM v ORDER BY id");
    expect(rows[0]).toMatchObject({ i: 1, r: 1.5, t: "é ✓ x", n: null });
    expect([...new Uint8Array(rows[0]!.b!)]).toEqual([0, 1, 2, 255]);
    expect(Buffer.from(rows[1]!.b!).toString()).toBe("lone");
    expect([...new Uint8Array(rows[2]!.b!)]).toEqual([0, 1, 2, 255]);
    expect([...new Uint8Array(rows[3]!.b!)]).toEqual([8, 7]);
    // Named arguments with any of SQLite's prefixes; a write with RETURNING gives its rows.
    expect(await db.get("SELECT :a + $b + @c AS s", { a: 1, $b: 2, "@c": 3 })).toEqual({ s: 6 });
    expect(await db.all("UPDATE v SET n = 'x' WHERE id <= 2 RETURNING id")).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await db.execute("DELETE FROM v WHERE id > 2")).rowsAffected).toBe(2);
    await expect(db.execute("SELECT ?", [undefined as unknown as null])).rejects.toBeInstanceOf(TypeError);
    db.close();
  });

  it("keeps prepared statements within a bound and stays correct past it, and across a schema change", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await db.execute("CREATE TABLE t (a INTEGER)");
    // More distinct statement texts than the cache holds, each run twice.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 700; i++) expect(await db.get(`SELECT ? + ${i} AS x`, [round])).toEqual({ x: round + i });
    }
    await db.execute("INSERT INTO t VALUES (1)");
    expect(await db.all("SELECT * FROM t")).toEqual([{ a: 1 }]);
    // A cached `SELECT *` sees a column added after it was prepared.
    await db.execute("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'z'");
    expect(await db.all("SELECT * FROM t")).toEqual([{ a: 1, b: "z" }]);
    db.close();
  });

  it("on a local file, a read outside a transaction waits for no write and sees the last commit", async () => {
    const db = await openDatabase({ url: `file:${join(dir, "reads.db")}` });
    await db.execute("CREATE TABLE t (a INTEGER)");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const open = new Promise<void>((resolve) => (begun = resolve));
    const held = db.transaction(async (tx) => {
      await tx.execute("INSERT INTO t VALUES (1)");
      begun();
      await gate;
    });
    await open;
    // The lane is held by the open transaction: reads are answered from the last commit meanwhile.
    expect(await db.all("SELECT a FROM t")).toEqual([]);
    expect(await db.all("WITH x AS (SELECT a FROM t) SELECT count(*) AS n FROM x")).toEqual([{ n: 0 }]);
    // A statement that writes goes through the lane, after the transaction.
    let written = false;
    const write = db.execute("WITH v(a) AS (VALUES (2)) INSERT INTO t SELECT a FROM v").then(() => (written = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toBe(false);
    release();
    await held;
    await write;
    expect(await db.all("SELECT a FROM t ORDER BY a")).toEqual([{ a: 1 }, { a: 2 }]);
    db.close();
  });

  it("a serving connection waits for a writer thread's lock without blocking its event loop, and the writer lets it go first", async () => {
    const url = `file:${join(dir, "turns.db")}`;
    const db = await openDatabase({ url });
    await db.execute("CREATE TABLE t (a INTEGER)");
    const writer = await openDatabase({ url, role: "writer", turns: db.turns });
    let begun!: () => void;
    const open = new Promise<void>((resolve) => (begun = resolve));
    const held = writer.transaction(async (tx) => {
      await tx.execute("INSERT INTO t VALUES (1)");
      begun();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await open;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const request = db.execute("INSERT INTO t VALUES (2)");
    // The writer's next transaction waits while the request does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = writer.transaction(async (tx) => tx.execute("INSERT INTO t VALUES (3)"));
    await request;
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(10);
    await held;
    await next;
    expect(await db.all("SELECT a FROM t ORDER BY rowid")).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    writer.close();
    db.close();
  });

  it("maps constraint and busy errors of the local binding like the client's", async () => {
    const path = join(dir, "busy.db");
    const db = await openDatabase({ url: `file:${path}` });
    await db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)");
    await db.execute("INSERT INTO t VALUES (1)");
    await expect(db.execute("INSERT INTO t VALUES (1)")).rejects.toMatchObject({ code: "conflict" });
    // A second connection holding the write lock: this one gives up after its busy timeout, unavailable.
    const other = await openDatabase({ url: `file:${path}` });
    await other.execute("PRAGMA busy_timeout = 0");
    await db.execute("PRAGMA busy_timeout = 50");
    const held = other.transaction(async (tx) => {
      await tx.execute("INSERT INTO t VALUES (2)");
      await expect(db.execute("INSERT INTO t VALUES (3)")).rejects.toMatchObject({ code: "unavailable" });
    });
    await held;
    expect(await db.all("SELECT a FROM t ORDER BY a")).toEqual([{ a: 1 }, { a: 2 }]);
    other.close();
    db.close();
  });

  it("inserts any number of rows, in order, through a few statement shapes", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)");
    let next = 0;
    for (const n of [0, 1, 7, 16, 37, 100]) {
      const rows = Array.from({ length: n }, () => [next, `r${next++}`]);
      await db.transaction((tx) => insertRows(tx, "t", ["a", "b"], rows));
    }
    const all = await db.all<{ a: number; b: string }>("SELECT a, b FROM t ORDER BY id");
    expect(all.map((r) => r.a)).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(all.every((r) => r.b === `r${r.a}`)).toBe(true);
    db.close();
  });
});
