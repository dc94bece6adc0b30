import { describe, expect, it } from "vitest";
import { indexFileSymbols } from "../../../src/ingest/read/index-symbols.js";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { migrate } from "../../../src/store/migrate.js";
import { upsertSymbols } from "../../../src/store/code/symbols.js";
import { searchDeclarations } from "../../../src/store/search/declaration-search.js";
import { searchFiles } from "../../../src/store/search/lexical-search.js";
import { sharingSearches } from "../../../src/store/search/shared-searches.js";
import { searchSymbols } from "../../../src/store/search/symbol-search.js";
import { countingReads } from "../../support/counting-reads.js";
import { seedProjectFile } from "../../support/old-store-seed.js";

async function seeded(): Promise<Db> {
  const db = await openDatabase({ url: ":memory:" });
  await migrate(db);
  await seedProjectFile(db, { path: "src/config/load.ts", contentType: "text/x-typescript", fileType: "code" });
  const names = ["loadConfig", "parseConfig", "configPath", "readConfigFile"];
  await upsertSymbols(db, "prj_1", names.map((name, i) => ({ symbolId: `sym_${i}`, fileId: "fil_1", language: "typescript", name, qualifiedName: name,
    depth: 0, kind: "function", lineStart: i + 1, lineEnd: i + 1, signature: `function ${name}()`, doc: null, factionId: null, cellId: null, entityId: null })));
  await indexFileSymbols(db, "fil_1");
  await db.execute("INSERT INTO files_fts (rowid, title, body) VALUES ((SELECT rowid FROM files WHERE file_id = 'fil_1'), 'src/config/load.ts', 'load the config')");
  return db;
}

describe("searches shared by the stages of one answer", () => {
  it("runs one declaration search for both callers, with the rows each gets alone", async () => {
    const db = await seeded();
    const match = '"config" OR "file"';
    const alone = [await searchSymbols(db, ["prj_1"], match, 3), await searchDeclarations(db, ["prj_1"], match, 3)];
    const { q, reads } = countingReads(db);
    const shared = sharingSearches(q, {});
    const both = [await searchSymbols(shared, ["prj_1"], match, 3), await searchDeclarations(shared, ["prj_1"], match, 3)];
    expect(both).toEqual(alone);
    expect(alone[0]).toHaveLength(3);
    expect(reads()).toBe(1);
    db.close();
  });

  it("serves a narrower file search from the declared width and runs a wider one again", async () => {
    const db = await seeded();
    const { q, reads } = countingReads(db);
    const shared = sharingSearches(q, { files: 2 });
    expect((await searchFiles(shared, ["prj_1"], '"config"', 1)).map((h) => h.fileId)).toEqual(["fil_1"]);
    expect(await searchFiles(shared, ["prj_1"], '"config"', 2)).toEqual(await searchFiles(db, ["prj_1"], '"config"', 2));
    expect(reads()).toBe(1);
    await searchFiles(shared, ["prj_1"], '"config"', 5);
    expect(reads()).toBe(2);
    expect(await searchFiles(shared, ["prj_1"], '"config"', 1, ["fil_2"])).toEqual([]);
    expect(reads()).toBe(3);
    db.close();
  });
});
