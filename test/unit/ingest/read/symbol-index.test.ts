import { describe, expect, it } from "vitest";
import { indexFileSymbols } from "../../../../src/ingest/read/index-symbols.js";
import { openDatabase } from "../../../../src/store/db.js";
import type { Db } from "../../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../../src/store/migrate.js";
import { searchSymbols } from "../../../../src/store/search/symbol-search.js";
import { retireSymbols, upsertSymbols } from "../../../../src/store/code/symbols.js";
import { SEED_TIME, seedProjectFile } from "../../../support/old-store-seed.js";

const NOW = SEED_TIME;

/** A project, a chunk and one file, as the tables stood before the declaration index. */
async function seedFile(db: Db): Promise<void> {
  await seedProjectFile(db, { path: "src/config/load.ts", contentType: "text/x-typescript", fileType: "code" });
}

async function addSymbol(db: Db, id: string, name: string, signature: string, retired: string | null = null): Promise<void> {
  // Since 0035 symbols are rows keyed by rowid, written by the store's own writer.
  if ((await db.get("SELECT 1 FROM sqlite_master WHERE name = 'symbol_rows'")) !== undefined) {
    await upsertSymbols(db, "prj_1", [{ symbolId: id, fileId: "fil_1", language: "typescript", name, qualifiedName: name, depth: 0, kind: "function",
      lineStart: 1, lineEnd: 3, signature, doc: null, factionId: null, cellId: null, entityId: null }]);
    if (retired !== null) await retireSymbols(db, "prj_1", [id], retired);
    return;
  }
  // Symbols stored before 0029 carry two timestamps.
  const stamped = (await db.get("SELECT 1 FROM pragma_table_info('symbols') WHERE name = 'created_at'")) !== undefined;
  await db.execute(
    `INSERT INTO symbols (project_id, symbol_id, file_id, language, name, qualified_name, depth, kind, line_start, line_end, signature,
       doc, ${stamped ? "created_at, updated_at, " : ""}retired_at)
     VALUES ('prj_1', ?, 'fil_1', 'typescript', ?, ?, 0, 'function', 1, 3, ?, NULL, ${stamped ? "?, ?, " : ""}?)`,
    [id, name, name, signature, ...(stamped ? [NOW, NOW] : []), retired],
  );
}

const found = async (db: Db, match: string) => (await searchSymbols(db, ["prj_1"], match, 10)).map((h) => h.symbolId);

describe("declaration search index", () => {
  it("the migration indexes symbols read before it, as stored; a re-index splits their identifiers", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const all = loadMigrations();
    await migrate(db, all.filter((m) => m.version < 6));
    await seedFile(db);
    await addSymbol(db, "sym_a", "loadConfigFile", "function loadConfigFile(path: string): Config");
    await migrate(db, all);
    expect(await found(db, '"loadconfigfile"')).toEqual(["sym_a"]);
    expect(await found(db, '"config"')).toEqual(["sym_a"]);
    expect(await found(db, '"file"')).toEqual([]);
    await indexFileSymbols(db, "fil_1");
    expect(await found(db, '"file"')).toEqual(["sym_a"]);
    db.close();
  });

  it("re-indexing a file keeps only its live declarations", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await migrate(db);
    await seedFile(db);
    await addSymbol(db, "sym_a", "parse_options", "def parse_options(argv)");
    await addSymbol(db, "sym_b", "old_options", "def old_options()", NOW);
    await indexFileSymbols(db, "fil_1");
    expect(await found(db, '"options"')).toEqual(["sym_a"]);
    expect(await found(db, '"parseoptions"')).toEqual(["sym_a"]);
    expect(await found(db, '"src" AND "config"')).toEqual(["sym_a"]);
    await db.execute("UPDATE symbol_rows SET retired_at = ? WHERE symbol_id = 'sym_a'", [NOW]);
    await db.execute("UPDATE symbol_rows SET retired_at = NULL WHERE symbol_id = 'sym_b'");
    await indexFileSymbols(db, "fil_1");
    expect(await found(db, '"options"')).toEqual(["sym_b"]);
    db.close();
  });
});
