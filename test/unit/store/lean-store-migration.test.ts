import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { projectStats } from "../../../src/store/files/project-stats.js";
import { readFactions } from "../../../src/store/graph/faction-reads.js";
import { entityLinks } from "../../../src/store/graph/cell-reads.js";
import { linkCellEntities, sourcedKey, upsertSourcedEntities } from "../../../src/store/graph/entities.js";
import { liveSymbolIdsOfFile, retireSymbolsOfFile, upsertSymbols } from "../../../src/store/code/symbols.js";
import { unlinkPairs } from "../../../src/store/graph/mention-links.js";
import { countReferencesWithPrefix, namesContaining, referencesNamed } from "../../../src/store/code/code-references.js";
import { updateFileReferences } from "../../../src/store/code/reference-changes.js";
import { insertCells, placeCell, retireCells, withoutPath } from "../../../src/store/graph/cells.js";
import { insertFactions, liveFactionKeys, retireFactions, storedHash } from "../../../src/store/graph/factions.js";
import { importBindings, importEdges, replaceFileModuleKeys } from "../../../src/store/code/file-imports.js";
import { filesByKeys } from "../../../src/store/code/code-graph-reads.js";
import { usageFileCounts } from "../../../src/store/code/code-pack-reads.js";
import { SEED_TIME, seedProjectFile } from "../../support/old-store-seed.js";

const NOW = SEED_TIME;

/** A store as 0028 left it: one file, two factions (one retired), three cells, a symbol. */
async function oldShaped(): Promise<Db> {
  const db = await openDatabase({ url: ":memory:" });
  await migrate(db, loadMigrations().filter((m) => m.version < 29));
  await seedProjectFile(db, { path: "guide.md", contentType: "text/markdown", fileType: "document" });
  for (const [id, retired] of [["fac_1", null], ["fac_2", NOW]] as const) {
    await db.execute(
      `INSERT INTO factions (faction_id, project_id, file_id, content_hash, ordinal, faction_type, inferred_type, line_start, line_end, text,
         retired_at, created_at, updated_at)
       VALUES (?, 'prj_1', 'fil_1', 'h', 0, 'text', 'text/markdown', 1, 2, 'Hono and Zod', ?, ?, ?)`,
      [id, retired, NOW, NOW],
    );
  }
  for (const cell of ["cel_1", "cel_2", "cel_3"]) {
    await db.execute(
      `INSERT INTO cells (cell_id, project_id, file_id, faction_id, ordinal, text, created_at, updated_at)
       VALUES (?, 'prj_1', 'fil_1', 'fac_1', 0, ?, ?, ?)`,
      [cell, `text of ${cell}`, NOW, NOW],
    );
  }
  await db.execute(
    `INSERT INTO symbols (project_id, symbol_id, file_id, language, name, qualified_name, depth, kind, line_start, line_end, signature,
       doc, created_at, updated_at)
     VALUES ('prj_1', 'sym_1', 'fil_1', 'typescript', 'hono', 'hono', 0, 'function', 1, 2, 'function hono()', NULL, ?, ?)`,
    [NOW, NOW],
  );
  return db;
}

const columns = async (db: Db, table: string) =>
  (await db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)).map((r) => r.name);

describe("0029: columns nothing reads", () => {
  it("drops the timestamps no read selects, keeps every row, its values and the cells' rowids", async () => {
    const db = await oldShaped();
    const rowids = await db.all("SELECT rowid, cell_id, text, updated_at FROM cells ORDER BY rowid");
    await migrate(db, loadMigrations());
    expect(await columns(db, "factions")).not.toContain("created_at");
    expect(await columns(db, "factions")).not.toContain("updated_at");
    expect(await columns(db, "cells")).not.toContain("created_at");
    expect(await columns(db, "cells")).toContain("updated_at");
    expect(await columns(db, "symbols")).not.toContain("updated_at");
    // The full-text index keys cells by rowid: the rewrite keeps them.
    expect(await db.all("SELECT rowid, cell_id, text, updated_at FROM cells ORDER BY rowid")).toEqual(rowids);
    expect(await db.get("SELECT 1 AS x FROM sqlite_master WHERE name = 'factions_project'")).toBeUndefined();
    const listed = await readFactions(db, { projectIds: ["prj_1"] });
    expect(listed.map((f) => [f.factionId, f.projectId, f.location])).toEqual([["fac_1", "prj_1", { lineStart: 1, lineEnd: 2 }]]);
    expect(await projectStats(db, "prj_1")).toEqual({ files: 1, failed: 0, factions: 1, cells: 3, entities: 0 });
    expect(await db.get("SELECT symbol_id, signature FROM symbols")).toEqual({ symbol_id: "sym_1", signature: "function hono()" });
    db.close();
  });
});

describe("0030: cell-entity links by rowid", () => {
  it("keeps every link, reads it back by id, and a deleted cell or entity takes its links along", async () => {
    const db = await oldShaped();
    for (const id of ["ent_a", "ent_b"]) {
      await db.execute(
        `INSERT INTO entities (entity_id, project_id, name, norm_name, kind, source_key, created_at, updated_at)
         VALUES (?, 'prj_1', ?, ?, 'product', ?, ?, ?)`,
        [id, id, id, `name:${id}`, NOW, NOW],
      );
    }
    const links: Array<[string, string]> = [["cel_1", "ent_a"], ["cel_1", "ent_b"], ["cel_2", "ent_b"], ["cel_3", "ent_a"]];
    for (const [cell, entity] of links) await db.execute("INSERT INTO cell_entities (cell_id, entity_id) VALUES (?, ?)", [cell, entity]);
    await migrate(db, loadMigrations());
    expect(await columns(db, "cell_entities")).toEqual(["cell_rowid", "entity_rowid"]);
    expect(await entityLinks(db, ["cel_1", "cel_2", "cel_3"])).toEqual(
      new Map([["cel_1", ["ent_a", "ent_b"]], ["cel_2", ["ent_b"]], ["cel_3", ["ent_a"]]]),
    );
    // Writing a link twice, or to a cell not stored, adds nothing.
    await linkCellEntities(db, [{ cellId: "cel_2", entityId: "ent_b" }, { cellId: "cel_2", entityId: "ent_a" }, { cellId: "cel_x", entityId: "ent_a" }]);
    await unlinkPairs(db, [{ cellId: "cel_1", entityId: "ent_b" }]);
    expect(await entityLinks(db, ["cel_1", "cel_2"])).toEqual(new Map([["cel_1", ["ent_a"]], ["cel_2", ["ent_a", "ent_b"]]]));
    await db.execute("DELETE FROM entity_rows WHERE entity_id = 'ent_b'");
    await db.execute("DELETE FROM cell_rows WHERE cell_id = 'cel_3'");
    expect(await db.all("SELECT cell_rowid, entity_rowid FROM cell_entities ORDER BY 1, 2")).toHaveLength(2);
    expect(await projectStats(db, "prj_1")).toMatchObject({ cells: 2, entities: 1 });
    db.close();
  });
});

describe("0031: packed references keyed by the project's rowid", () => {
  it("keeps every row, lists and counts them by project id, rewrites a file's rows and drops a deleted file's", async () => {
    const db = await oldShaped();
    const site = (line: number) => `${line}:4`;
    for (const [name, kind, sites] of [["Hono", "usage", [site(1), site(2)]], ["hono", "declaration", ["1:9:2:1:sym_1"]]] as const) {
      await db.execute(
        `INSERT INTO code_reference_sites (project_id, folded, name, kind, file_rowid, n, sites)
         VALUES ('prj_1', ?, ?, ?, (SELECT rowid FROM files WHERE file_id = 'fil_1'), ?, ?)`,
        [name.toLowerCase(), name, kind, sites.length, sites.join(",")],
      );
    }
    await migrate(db, loadMigrations());
    expect(await columns(db, "code_reference_sites")).toContain("project_rowid");
    const named = await referencesNamed(db, "prj_1", "hono", 10);
    expect(named.map((r) => [r.projectId, r.fileId, r.path, r.name, r.kind, r.lineStart])).toEqual([
      ["prj_1", "fil_1", "guide.md", "Hono", "usage", 1],
      ["prj_1", "fil_1", "guide.md", "Hono", "usage", 2],
      ["prj_1", "fil_1", "guide.md", "hono", "declaration", 1],
    ]);
    expect(await countReferencesWithPrefix(db, "prj_1", "ho")).toBe(3);
    expect(await countReferencesWithPrefix(db, "prj_other", "")).toBe(0);
    // A re-read that keeps one usage: the other row goes, a new one comes.
    await updateFileReferences(db, { projectId: "prj_1", fileId: "fil_1", path: "guide.md" }, [
      { name: "Hono", kind: "usage", lineStart: 1, lineEnd: 1, nameLine: 1, nameCol: 4, symbolId: null },
      { name: "Zod", kind: "usage", lineStart: 3, lineEnd: 3, nameLine: 3, nameCol: 0, symbolId: null },
    ]);
    expect(await countReferencesWithPrefix(db, "prj_1", "")).toBe(2);
    await db.execute("DELETE FROM files WHERE file_id = 'fil_1'");
    expect(await db.get("SELECT count(*) AS n FROM code_reference_sites")).toEqual({ n: 0 });
    db.close();
  });
});

describe("0032: factions and cells keyed by rowid", () => {
  const CELLS = "SELECT rowid, cell_id, project_id, file_id, faction_id, parent_cell_id, ordinal, text, retired_at, updated_at FROM cells ORDER BY rowid";
  const FACTIONS = "SELECT rowid, faction_id, project_id, file_id, ordinal, faction_type, line_start, line_end, text, retired_at FROM factions ORDER BY rowid";

  it("keeps every row, its rowid and the references to it; writes by id; a deleted file takes its rows along", async () => {
    const db = await oldShaped();
    await db.execute("UPDATE cells SET parent_cell_id = 'cel_1' WHERE cell_id = 'cel_2'");
    await db.execute("INSERT INTO symbol_mentions (cell_id, project_id, name) VALUES ('cel_3', 'prj_1', 'hono')");
    const cells = await db.all(CELLS);
    const factions = await db.all(FACTIONS);
    await migrate(db, loadMigrations());
    expect(await db.all(CELLS)).toEqual(cells);
    expect(await db.all(FACTIONS)).toEqual(factions);
    expect(await columns(db, "cell_rows")).toEqual(["cell_id", "project_rowid", "file_rowid", "faction_rowid", "parent_rowid", "ordinal", "text", "retired_at", "updated_ms", "path_at"]);
    expect(await columns(db, "faction_rows")).not.toContain("project_id");
    expect(await db.all("PRAGMA foreign_key_check")).toEqual([]);

    // A new faction with two cells, one under the other, and one under a cell stored before.
    await insertFactions(db, [{ factionId: "fac_3", projectId: "prj_1", fileId: "fil_1", contentHash: "x".repeat(43), ordinal: 1, factionType: "text",
      inferredType: "text/markdown", location: { lineStart: 3, lineEnd: 3 }, headingPath: "[]", text: "Zod" }]);
    const cell = (cellId: string, parentCellId: string | null, ordinal: number) => ({ cellId, projectId: "prj_1", fileId: "fil_1", factionId: "fac_3", parentCellId, ordinal, text: cellId });
    await insertCells(db, [cell("cel_4", null, 0), cell("cel_5", "cel_4", 1), cell("cel_6", "cel_1", 2)], NOW);
    expect(await db.all("SELECT cell_id, faction_id, parent_cell_id FROM cells WHERE faction_id = 'fac_3' ORDER BY ordinal")).toEqual([
      { cell_id: "cel_4", faction_id: "fac_3", parent_cell_id: null },
      { cell_id: "cel_5", faction_id: "fac_3", parent_cell_id: "cel_4" },
      { cell_id: "cel_6", faction_id: "fac_3", parent_cell_id: "cel_1" },
    ]);
    expect((await liveFactionKeys(db, "fil_1")).map((f) => [f.factionId, f.contentHash])).toEqual([["fac_1", "h"], ["fac_3", storedHash("x".repeat(43))]]);
    await placeCell(db, "cel_6", null, 3, NOW);
    await retireFactions(db, ["fac_1"], NOW);
    expect(await db.all("SELECT cell_id, parent_cell_id FROM cells WHERE retired_at IS NULL ORDER BY ordinal")).toEqual([
      { cell_id: "cel_4", parent_cell_id: null },
      { cell_id: "cel_5", parent_cell_id: "cel_4" },
      { cell_id: "cel_6", parent_cell_id: null },
    ]);
    await db.execute("DELETE FROM files WHERE file_id = 'fil_1'");
    for (const table of ["faction_rows", "cell_rows", "symbol_mentions"]) expect(await db.get(`SELECT count(*) AS n FROM ${table}`)).toEqual({ n: 0 });
    db.close();
  });
});

describe("0033: imports and path keys keyed by rowid", () => {
  it("keeps every import and key, resolves them by id as before, and a deleted file takes its rows along", async () => {
    const db = await oldShaped();
    await db.execute(
      `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, created_at, updated_at)
       VALUES ('fil_2', 'prj_1', 'src/util.ts', 'text/typescript', 'code', 1, 'c1', 'ready', ?, ?)`,
      [NOW, NOW],
    );
    await db.execute(
      `INSERT INTO file_imports (project_id, file_id, line, specifier, local_name, imported_name, module_key, key_mode)
       VALUES ('prj_1', 'fil_1', 3, './util', 'parse', 'parse', 'util', 'suffix'), ('prj_1', 'fil_1', 4, 'zod', 'z', 'z', NULL, 'external')`,
    );
    await db.execute("INSERT INTO file_module_keys (project_id, key, file_id, full) VALUES ('prj_1', 'util', 'fil_2', 0), ('prj_1', 'src/util.ts', 'fil_2', 1)");
    await migrate(db, loadMigrations());
    expect(await columns(db, "file_module_keys")).toEqual(["project_rowid", "key", "file_rowid", "full"]);
    expect(await importEdges(db, ["prj_1"])).toEqual([{ projectId: "prj_1", fromFileId: "fil_1", toFileId: "fil_2" }]);
    expect(await importBindings(db, ["fil_1"], ["parse", "z"])).toEqual([
      { fileId: "fil_1", localName: "parse", importedName: "parse", keyMode: "suffix", line: 3, targetFileIds: ["fil_2"] },
      { fileId: "fil_1", localName: "z", importedName: "z", keyMode: "external", line: 4, targetFileIds: [] },
    ]);
    expect(await filesByKeys(db, ["prj_1"], ["util"])).toEqual([{ key: "util", fileId: "fil_2", path: "src/util.ts" }]);
    await replaceFileModuleKeys(db, "prj_1", "fil_2", [{ key: "util", full: false }]);
    expect(await usageFileCounts(db, ["prj_1"], [])).toEqual({ files: 0, perName: new Map() });
    await db.execute("DELETE FROM files WHERE file_id = 'fil_2'");
    expect(await db.get("SELECT count(*) AS n FROM file_module_keys")).toEqual({ n: 0 });
    expect(await importEdges(db, ["prj_1"])).toEqual([]);
    db.close();
  });
});

describe("0034, 0035: entities and symbols keyed by rowid", () => {
  const ENTITIES = "SELECT rowid, entity_id, project_id, name, norm_name, kind, type_entity_id, source_key FROM entities ORDER BY rowid";
  const SYMBOLS = "SELECT rowid, project_id, symbol_id, file_id, name, faction_id, cell_id, entity_id, retired_at FROM symbols ORDER BY rowid";

  it("keeps every row, its rowid and the references to it; writes by id; a deleted file or project takes its rows along", async () => {
    const db = await oldShaped();
    await db.execute(
      `INSERT INTO entities (entity_id, project_id, name, norm_name, kind, source_key, created_at, updated_at)
       VALUES ('ent_c', 'prj_1', 'Invoice', 'invoice', 'category', 'category:invoice', ?, ?), ('ent_s', 'prj_1', 'hono', 'hono', 'symbol', 'sym_1', ?, ?)`,
      [NOW, NOW, NOW, NOW],
    );
    await db.execute("UPDATE entities SET type_entity_id = 'ent_c' WHERE entity_id = 'ent_s'");
    await db.execute("INSERT INTO entity_aliases (project_id, norm_name, entity_id) VALUES ('prj_1', 'hono', 'ent_s')");
    await db.execute("UPDATE symbols SET faction_id = 'fac_1', cell_id = 'cel_1', entity_id = 'ent_s'");
    const entities = await db.all(ENTITIES);
    const symbols = await db.all(SYMBOLS);
    await migrate(db, loadMigrations());
    expect(await db.all(ENTITIES)).toEqual(entities);
    expect(await db.all(SYMBOLS)).toEqual(symbols);
    expect(await columns(db, "entity_rows")).not.toContain("created_at");
    expect(await columns(db, "symbol_rows")).toContain("cell_rowid");
    expect(await db.all("PRAGMA foreign_key_check")).toEqual([]);

    // Written by id: a new entity, a renamed one, a symbol upserted and retired.
    const ids = await upsertSourcedEntities(db, "prj_1", [
      { kind: "symbol", sourceKey: "sym_1", name: "Hono", normName: "hono" },
      { kind: "file", sourceKey: "fil_1", name: "guide.md", normName: "guide md" },
    ]);
    expect(ids.get(sourcedKey("symbol", "sym_1"))).toBe("ent_s");
    const symbol = { symbolId: "sym_1", fileId: "fil_1", language: "typescript", name: "hono", qualifiedName: "hono", depth: 0, kind: "function",
      lineStart: 1, lineEnd: 3, signature: "function hono()", doc: null, factionId: "fac_1", cellId: null, entityId: ids.get(sourcedKey("file", "fil_1"))! };
    await upsertSymbols(db, "prj_1", [symbol]);
    expect(await db.get("SELECT name, line_end, cell_id, entity_id FROM symbols")).toEqual({ name: "hono", line_end: 3, cell_id: null, entity_id: symbol.entityId });
    expect(await db.get("SELECT name FROM entities WHERE entity_id = 'ent_s'")).toEqual({ name: "Hono" });
    await retireSymbolsOfFile(db, "fil_1", NOW);
    expect(await liveSymbolIdsOfFile(db, "fil_1")).toEqual([]);

    await db.execute("DELETE FROM files WHERE file_id = 'fil_1'");
    expect(await db.get("SELECT count(*) AS n FROM symbol_rows")).toEqual({ n: 0 });
    await db.execute("DELETE FROM projects WHERE project_id = 'prj_1'");
    for (const table of ["entity_rows", "entity_aliases"]) expect(await db.get(`SELECT count(*) AS n FROM ${table}`)).toEqual({ n: 0 });
    db.close();
  });
});

describe("0036, 0037: reference names by project rowid, faction kinds by rowid", () => {
  it("keeps every name and every faction's type pair, reads and writes them by id as before", async () => {
    const db = await oldShaped();
    await db.execute("INSERT INTO code_names (project_id, folded) VALUES ('prj_1', 'hono'), ('prj_1', 'zod')");
    await migrate(db, loadMigrations());
    expect(await columns(db, "code_names")).toEqual(["project_rowid", "folded"]);
    expect(await namesContaining(db, "prj_1", "o", 10)).toEqual(["hono", "zod"]);
    expect(await db.all("SELECT faction_id, faction_type, inferred_type FROM factions ORDER BY faction_id")).toEqual([
      { faction_id: "fac_1", faction_type: "text", inferred_type: "text/markdown" },
      { faction_id: "fac_2", faction_type: "text", inferred_type: "text/markdown" },
    ]);
    expect(await columns(db, "faction_rows")).not.toContain("faction_type");
    await insertFactions(db, [{ factionId: "fac_3", projectId: "prj_1", fileId: "fil_1", contentHash: "h3", ordinal: 1, factionType: "code_block",
      inferredType: "text/x-python", location: { lineStart: 3, lineEnd: 4 }, headingPath: "[]", text: "x = 1" }]);
    expect((await readFactions(db, { projectIds: ["prj_1"], factionType: "code_block" })).map((f) => [f.factionId, f.inferredType])).toEqual([
      ["fac_3", "text/x-python"],
    ]);
    expect(await db.get("SELECT count(*) AS n FROM faction_kinds")).toEqual({ n: 2 });
    await db.execute("DELETE FROM projects WHERE project_id = 'prj_1'");
    expect(await db.get("SELECT count(*) AS n FROM code_names")).toEqual({ n: 0 });
    db.close();
  });
});

describe("0039: a cell's update time in milliseconds", () => {
  const TIMES = "SELECT cell_id, updated_at FROM cells ORDER BY cell_id";

  it("reads every stored time back as the same string, and stores what writes give it", async () => {
    const db = await oldShaped();
    const stamps = ["1999-12-31T23:59:59.999Z", "2026-11-28T12:44:55.123Z", "2071-06-30T00:00:00.001Z"];
    for (const [k, at] of stamps.entries()) await db.execute("UPDATE cells SET updated_at = ? WHERE cell_id = ?", [at, `cel_${k + 1}`]);
    const before = await db.all(TIMES);
    await migrate(db, loadMigrations());
    expect(await db.all(TIMES)).toEqual(before);
    expect(await columns(db, "cell_rows")).not.toContain("updated_at");
    expect(await db.all("SELECT updated_ms FROM cell_rows ORDER BY cell_id")).toEqual(stamps.map((at) => ({ updated_ms: Date.parse(at) })));

    const later = "2026-11-28T13:00:00.456Z";
    await insertCells(db, [{ cellId: "cel_4", projectId: "prj_1", fileId: "fil_1", factionId: "fac_1", parentCellId: null, ordinal: 1, text: "Zod" }], later);
    await placeCell(db, "cel_1", "cel_4", 2, later);
    expect(await db.all("SELECT cell_id, updated_at FROM cells WHERE updated_at = ? ORDER BY cell_id", [later])).toEqual([
      { cell_id: "cel_1", updated_at: later },
      { cell_id: "cel_4", updated_at: later },
    ]);
    await expect(insertCells(db, [{ cellId: "cel_5", projectId: "prj_1", fileId: "fil_1", factionId: "fac_1", parentCellId: null, ordinal: 3, text: "x" }], "soon"))
      .rejects.toThrow("not a time: soon");
    expect(await db.get("SELECT count(*) AS n FROM cell_rows")).toEqual({ n: 4 });
    db.close();
  });
});

describe("0040: a packed reference row's kind as a flag", () => {
  it("keeps every row, lists declarations before usages of one name as before, and writes and deletes by the flag", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await migrate(db, loadMigrations().filter((m) => m.version < 40));
    await seedProjectFile(db, { path: "hono.ts", contentType: "text/x-typescript", fileType: "code" });
    for (const [name, kind, sites] of [["hono", "usage", "7:2"], ["Hono", "usage", "1:4,2:4"], ["hono", "declaration", "3:9:5:3:"]] as const) {
      await db.execute(
        `INSERT INTO code_reference_sites (project_rowid, folded, name, kind, file_rowid, n, sites)
         VALUES ((SELECT rowid FROM projects WHERE project_id = 'prj_1'), ?, ?, ?, (SELECT rowid FROM files WHERE file_id = 'fil_1'), ?, ?)`,
        [name.toLowerCase(), name, kind, sites.split(",").length, sites],
      );
    }
    await migrate(db, loadMigrations());
    expect(await columns(db, "code_reference_sites")).toEqual(["project_rowid", "folded", "name", "usage", "file_rowid", "n", "sites"]);
    const listed = async () => (await referencesNamed(db, "prj_1", "hono", 10)).map((r) => [r.name, r.kind, r.lineStart]);
    expect(await listed()).toEqual([
      ["Hono", "usage", 1],
      ["Hono", "usage", 2],
      ["hono", "declaration", 3],
      ["hono", "usage", 7],
    ]);
    expect((await usageFileCounts(db, ["prj_1"], ["hono"])).perName).toEqual(new Map([["hono", 1]]));
    // A re-read that keeps the declaration and one usage row: only the other rows change.
    await updateFileReferences(db, { projectId: "prj_1", fileId: "fil_1", path: "hono.ts" }, [
      { name: "hono", kind: "declaration", lineStart: 3, lineEnd: 5, nameLine: 3, nameCol: 9, symbolId: null },
      { name: "hono", kind: "usage", lineStart: 8, lineEnd: 8, nameLine: 8, nameCol: 2, symbolId: null },
    ]);
    expect(await listed()).toEqual([["hono", "declaration", 3], ["hono", "usage", 8]]);
    expect(await db.all("SELECT name, usage FROM code_reference_sites ORDER BY usage")).toEqual([
      { name: "hono", usage: 0 },
      { name: "hono", usage: 1 },
    ]);
    db.close();
  });
});

describe("0041: a cell's text without its file's path", () => {
  const TEXTS = "SELECT cell_id, text FROM cells ORDER BY cell_id";

  it("cuts the path out of stored text, reads every text back as written, and a retired cell keeps none", async () => {
    const db = await openDatabase({ url: ":memory:" });
    await migrate(db, loadMigrations().filter((m) => m.version < 41));
    await seedProjectFile(db, { path: "src/grüße.ts", contentType: "text/x-typescript", fileType: "code" });
    await insertFactions(db, [{ factionId: "fac_1", projectId: "prj_1", fileId: "fil_1", contentHash: "h", ordinal: 0, factionType: "code_unit",
      inferredType: "text/x-typescript", location: { lineStart: 1, lineEnd: 2 }, headingPath: "[]", text: "x" }]);
    const texts = [
      "function grüße — grüße(): 😀 — src/grüße.ts — Greets src/grüße.ts twice.",
      "class Ok — src/grüße.ts",
      "no path here",
      "src/grüße.ts",
    ];
    for (const [k, text] of texts.entries()) {
      await db.execute(
        `INSERT INTO cell_rows (cell_id, project_rowid, file_rowid, faction_rowid, ordinal, text, updated_ms) VALUES (?, 1, 1, 1, ?, ?, 0)`,
        [`cel_${k}`, k, text],
      );
    }
    await migrate(db, loadMigrations());
    expect(await db.all(TEXTS)).toEqual(texts.map((text, k) => ({ cell_id: `cel_${k}`, text })));
    expect(await db.all("SELECT text, path_at FROM cell_rows ORDER BY cell_id")).toEqual([
      { text: "function grüße — grüße(): 😀 —  — Greets src/grüße.ts twice.", path_at: 30 },
      { text: "class Ok — ", path_at: 11 },
      { text: "no path here", path_at: null },
      { text: "", path_at: 0 },
    ]);

    // Written now: the same cut, the same text read back.
    await insertCells(db, texts.map((text, k) => ({ cellId: `cel_new_${k}`, projectId: "prj_1", fileId: "fil_1", factionId: "fac_1", parentCellId: null, ordinal: 10 + k, text })), NOW);
    expect(await db.all("SELECT text FROM cells WHERE cell_id LIKE 'cel_new_%' ORDER BY cell_id")).toEqual(texts.map((text) => ({ text })));
    expect(await db.all("SELECT text, path_at FROM cell_rows WHERE cell_id LIKE 'cel_new_%' ORDER BY cell_id")).toEqual(
      await db.all("SELECT text, path_at FROM cell_rows WHERE cell_id NOT LIKE 'cel_new_%' ORDER BY cell_id"),
    );
    expect(withoutPath("a — b", "")).toEqual({ text: "a — b", pathAt: null });

    await retireCells(db, ["cel_0", "cel_new_3"], NOW);
    expect(await db.all("SELECT cell_id, text FROM cells WHERE retired_at IS NOT NULL ORDER BY cell_id")).toEqual([
      { cell_id: "cel_0", text: "" },
      { cell_id: "cel_new_3", text: "" },
    ]);
    await retireFactions(db, ["fac_1"], NOW);
    expect(await db.get("SELECT count(*) AS n FROM cells WHERE text <> ''")).toEqual({ n: 0 });
    db.close();
  });
});
