import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { retireSymbols, retireSymbolsOfFile, upsertSymbols } from "../../../src/store/code/symbols.js";
import type { SymbolRecord } from "../../../src/store/code/symbols.js";
import { SEED_TIME, seedProjectFile } from "../../support/old-store-seed.js";

const symbol = (symbolId: string, name: string): SymbolRecord => ({ symbolId, fileId: "fil_1", language: "typescript", name, qualifiedName: name,
  depth: 0, kind: "function", lineStart: 1, lineEnd: 2, signature: `function ${name}()`, doc: null, factionId: null, cellId: null, entityId: null });

/** The table as it should be: every live declaration's rowid, file and project. */
async function expected(db: Db): Promise<unknown[]> {
  return db.all("SELECT rowid AS symbol_rowid, file_rowid, project_rowid FROM symbol_rows WHERE retired_at IS NULL ORDER BY rowid");
}
const kept = (db: Db) => db.all("SELECT symbol_rowid, file_rowid, project_rowid FROM symbol_files ORDER BY symbol_rowid");

describe("0046: each live declaration's file in a table of its own", () => {
  it("is filled from the live declarations, and follows every write, retirement, return and delete", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await migrate(db, loadMigrations().filter((m) => m.version < 46));
    await seedProjectFile(db, { path: "src/app.ts", contentType: "text/x-typescript", fileType: "code" });
    await upsertSymbols(db, "prj_1", [symbol("sym_1", "load"), symbol("sym_2", "parse"), symbol("sym_3", "gone")]);
    await retireSymbols(db, "prj_1", ["sym_3"], SEED_TIME);
    expect(await migrate(db)).toEqual([46]);
    expect((await kept(db)).length).toBe(2);
    expect(await kept(db)).toEqual(await expected(db));

    await upsertSymbols(db, "prj_1", [symbol("sym_4", "write")]);
    expect((await kept(db)).length).toBe(3);
    await retireSymbols(db, "prj_1", ["sym_1"], SEED_TIME);
    expect(await kept(db)).toEqual(await expected(db));
    // Read again: a retired id made live in place, a live one rewritten.
    await upsertSymbols(db, "prj_1", [symbol("sym_1", "load"), symbol("sym_3", "gone"), symbol("sym_2", "parse")]);
    expect((await kept(db)).length).toBe(4);
    expect(await kept(db)).toEqual(await expected(db));
    await retireSymbolsOfFile(db, "fil_1", SEED_TIME);
    expect(await kept(db)).toEqual([]);
    await upsertSymbols(db, "prj_1", [symbol("sym_2", "parse")]);
    expect((await kept(db)).length).toBe(1);
    await db.execute("DELETE FROM files WHERE file_id = 'fil_1'");
    expect(await db.all("SELECT rowid FROM symbol_rows")).toEqual([]);
    expect(await kept(db)).toEqual([]);
    db.close();
  });
});
