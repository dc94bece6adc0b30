import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { deleteSearchRows, readVarints, recountSearchTotals, writeVarints } from "../../../src/store/search/search-totals.js";

describe("full-text totals", () => {
  it("reads and writes SQLite varints of one to eight bytes", () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 21, 2 ** 35 + 7, 2 ** 49 + 3, 2 ** 53 - 1];
    expect(readVarints(writeVarints(values))).toEqual(values);
    expect([...writeVarints([300])]).toEqual([0x82, 0x2c]);
  });

  it("takes deleted rows out of the totals in a transaction that inserts before and after the delete", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await db.execute("CREATE VIRTUAL TABLE cells_fts USING fts5(text, context, content = '', contentless_delete = 1)");
    const totals = async () => readVarints(new Uint8Array((await db.get<{ block: ArrayBuffer }>("SELECT block FROM cells_fts_data WHERE id = 1"))!.block));
    for (let i = 1; i <= 4; i++) await db.execute("INSERT INTO cells_fts (rowid, text, context) VALUES (?, 'alpha beta gamma', 'x')", [i]);
    expect(await totals()).toEqual([4, 12, 4]);
    await db.transaction(async (tx) => {
      await tx.execute("INSERT INTO cells_fts (rowid, text, context) VALUES (5, 'delta', 'y z')");
      await deleteSearchRows(tx, "cells_fts", "SELECT value FROM json_each(?)", ["[1, 2, 9]"]);
      await tx.execute("INSERT INTO cells_fts (rowid, text, context) VALUES (6, 'epsilon zeta', 'w')");
    });
    // Rows 3, 4 (3 + 1 tokens each), 5 (1 + 2) and 6 (2 + 1); FTS5 alone keeps [6, 15, 7].
    expect(await totals()).toEqual([4, 9, 5]);
    db.close();
  });

  it("a recount rewrites a record that kept deleted rows counted, reading the sizes a page at a time, and leaves a true one alone", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await db.execute("CREATE VIRTUAL TABLE cells_fts USING fts5(text, context, content = '', contentless_delete = 1)");
    const totals = async () => readVarints(new Uint8Array((await db.get<{ block: ArrayBuffer }>("SELECT block FROM cells_fts_data WHERE id = 1"))!.block));
    for (let i = 1; i <= 7; i++) await db.execute("INSERT INTO cells_fts (rowid, text, context) VALUES (?, ?, 'x')", [i, "w ".repeat(i).trim()]);
    await db.execute("DELETE FROM cells_fts WHERE rowid IN (2, 5)");
    expect(await totals()).toEqual([7, 28, 7]);
    await db.transaction((tx) => recountSearchTotals(tx, "cells_fts", 2));
    // Rows 1, 3, 4, 6, 7: 21 words of text, one of context each.
    expect(await totals()).toEqual([5, 21, 5]);
    expect(await db.transaction((tx) => recountSearchTotals(tx, "cells_fts", 2))).toBe(false);
    db.close();
  });

  it("migration 0045 recounts a store written before deletes kept the totals", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const all = loadMigrations();
    await migrate(db, all.filter((m) => m.version < 45));
    for (let i = 1; i <= 4; i++) await db.execute("INSERT INTO symbols_fts (rowid, name) VALUES (?, 'parseConfig')", [i]);
    await db.execute("DELETE FROM symbols_fts WHERE rowid = 3");
    const rows = async () => readVarints(new Uint8Array((await db.get<{ block: ArrayBuffer }>("SELECT block FROM symbols_fts_data WHERE id = 1"))!.block))[0];
    expect(await rows()).toBe(4);
    expect(await migrate(db, all.filter((m) => m.version <= 45))).toEqual([45]);
    expect(await rows()).toBe(3);
    db.close();
  });
});
