import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../../src/errors.js";
import { openDatabase } from "../../../src/store/db.js";
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
    expect(Number((await db.get<{ foreign_keys: number }>("PRAGMA foreign_keys"))?.foreign_keys)).toBe(1);
    // Still on after a transaction handed the connection back.
    await db.transaction(async (tx) => tx.execute("SELECT 1"));
    expect(Number((await db.get<{ foreign_keys: number }>("PRAGMA foreign_keys"))?.foreign_keys)).toBe(1);
    db.close();
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
});
