import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { insertCells } from "../../../src/store/graph/cells.js";
import { insertFactions, liveFactionKeys, storedHash } from "../../../src/store/graph/factions.js";
import { dropSymbolMentions, fileSymbolMentions } from "../../../src/store/graph/mention-links.js";
import { mentionedNames, mentionsOfNames, recordSymbolMentions, symbolEntitiesOfNames, unlinkFileMentions } from "../../../src/store/graph/named-entities.js";
import { releaseChunks } from "../../../src/store/files/chunks.js";
import { SEED_TIME, seedProjectFile } from "../../support/old-store-seed.js";

const NOW = SEED_TIME;
const FULL_HASH = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE";

/** A store as 0041 left it: one code file, one faction (its hash of 22 characters), three cells, a symbol with its entity. */
async function storeAt41(): Promise<Db> {
  const db = await openDatabase({ url: ":memory:" });
  await migrate(db, loadMigrations().filter((m) => m.version < 42));
  await seedProjectFile(db, { path: "src/app.ts", contentType: "text/x-typescript", fileType: "code" });
  await insertFactions(db, [{ factionId: "fac_1", projectId: "prj_1", fileId: "fil_1", contentHash: FULL_HASH, ordinal: 0, factionType: "text",
    inferredType: "text/markdown", location: { lineStart: 1, lineEnd: 2 }, headingPath: "[]", text: "Hono and Zod" }]);
  // The hash as 0041 stored it (`insertFactions` now cuts it shorter).
  await db.execute("UPDATE faction_rows SET content_hash = ?", [FULL_HASH.slice(0, 22)]);
  const cell = (cellId: string, ordinal: number) => ({ cellId, projectId: "prj_1", fileId: "fil_1", factionId: "fac_1", parentCellId: null, ordinal, text: cellId });
  await insertCells(db, [cell("cel_1", 0), cell("cel_2", 1), cell("cel_3", 2)], NOW);
  await db.execute("INSERT INTO entity_rows (entity_id, project_rowid, name, norm_name, kind, source_key) VALUES ('ent_s', 1, 'Hono', 'hono', 'symbol', 'sym_1')");
  await db.execute(
    `INSERT INTO symbol_rows (project_rowid, symbol_id, file_rowid, language, name, qualified_name, depth, kind, line_start, line_end, signature, entity_rowid)
     VALUES (1, 'sym_1', 1, 'typescript', 'route', 'Hono.route', 1, 'method', 1, 2, 'route()', (SELECT rowid FROM entity_rows WHERE entity_id = 'ent_s'))`,
  );
  return db;
}

const mentions = async (db: Db) => (await fileSymbolMentions(db, "fil_1")).map((m) => `${m.cellId} ${m.name}`).sort();

describe("0042: symbol mentions keyed by the cell's and the project's rowids", () => {
  it("keeps every mention, reads, writes and deletes them by cell id, and a deleted cell takes its mentions along", async () => {
    const db = await storeAt41();
    await db.execute("INSERT INTO symbol_mentions (cell_id, project_id, name) VALUES ('cel_1', 'prj_1', 'route'), ('cel_2', 'prj_1', 'Hono.route'), ('cel_2', 'prj_1', 'zod')");
    const before = (await db.all<{ m: string }>("SELECT cell_id || ' ' || name AS m FROM symbol_mentions ORDER BY m")).map((r) => r.m);
    await migrate(db, loadMigrations());
    expect(await db.all("SELECT name FROM pragma_table_info('symbol_mentions')")).toEqual([{ name: "cell_rowid" }, { name: "project_rowid" }, { name: "name" }]);
    expect(await mentions(db)).toEqual(before);
    expect(before).toEqual(["cel_1 route", "cel_2 Hono.route", "cel_2 zod"]);

    // Names resolved by name and by qualified name; mentions read by name.
    expect(Object.fromEntries(await symbolEntitiesOfNames(db, "prj_1", ["route", "Hono.route", "zod"], 3))).toEqual({ route: ["ent_s"], "Hono.route": ["ent_s"] });
    expect(await mentionedNames(db, "prj_1", ["route", "zod", "nowhere"])).toEqual(["route", "zod"]);
    const named = async (names: string[]) => (await mentionsOfNames(db, "prj_1", names)).map((m) => `${m.cellId} ${m.name}`).sort();
    expect(await named(["Hono.route", "zod"])).toEqual(["cel_2 Hono.route", "cel_2 zod"]);
    expect(await named([])).toEqual([]);

    // Written by id: a repeated mention is kept once; one naming no stored cell is left out.
    await recordSymbolMentions(db, "prj_1", [{ cellId: "cel_3", name: "route" }, { cellId: "cel_3", name: "route" }, { cellId: "cel_none", name: "route" }]);
    expect(await mentions(db)).toEqual(["cel_1 route", "cel_2 Hono.route", "cel_2 zod", "cel_3 route"]);
    await dropSymbolMentions(db, [{ cellId: "cel_2", name: "zod" }, { cellId: "cel_1", name: "zod" }]);
    expect(await mentions(db)).toEqual(["cel_1 route", "cel_2 Hono.route", "cel_3 route"]);

    await db.execute("DELETE FROM cell_rows WHERE cell_id = 'cel_1'");
    expect(await mentions(db)).toEqual(["cel_2 Hono.route", "cel_3 route"]);
    await unlinkFileMentions(db, "prj_1", "fil_1");
    expect(await db.get("SELECT count(*) AS n FROM symbol_mentions")).toEqual({ n: 0 });
    db.close();
  });
});

describe("0043: indexes that hold only the rows their reads ask for", () => {
  const plan = async (db: Db, sql: string) => (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)).map((r) => r.detail).join("; ");

  it("leaves out NULL keys and files read from the chunk they hold; each read still searches its index", async () => {
    const db = await storeAt41();
    await migrate(db, loadMigrations());
    expect(await plan(db, "SELECT cell_id FROM cell_rows WHERE parent_rowid = 1")).toContain("USING INDEX cells_parent");
    expect(await plan(db, "SELECT entity_id FROM entities WHERE type_entity_id = 'ent_c'")).toContain("USING INDEX entities_type");
    expect(await plan(db, "SELECT file_rowid FROM file_imports WHERE project_rowid = 1 AND module_key = 'k'")).toContain("USING INDEX file_imports_key");

    // A file read from c1 that now holds c2: c1 stays while it is the file's read chunk, and goes once it is not.
    await db.execute("INSERT INTO chunks (project_id, chunk_id, bytes, size, created_at) VALUES ('prj_1', 'c2', x'00', 1, ?)", [NOW]);
    await db.execute("UPDATE files SET chunk_id = 'c2', read_chunk_id = 'c1'");
    const indexed = (await db.all<{ n: number }>("SELECT count(*) AS n FROM files INDEXED BY files_read_chunk WHERE project_id = 'prj_1' AND read_chunk_id = 'c1' AND read_chunk_id <> chunk_id"))[0];
    expect(indexed).toEqual({ n: 1 });
    const later = "2026-06-01T00:00:00.000Z";
    expect(await releaseChunks(db, "prj_1", ["c1", "c2"], later, later)).toEqual({ chunks: 0, bytes: 0 });
    await db.execute("UPDATE files SET read_chunk_id = 'c2'");
    expect(await releaseChunks(db, "prj_1", ["c1", "c2"], later, later)).toEqual({ chunks: 1, bytes: 1 });
    expect(await db.all("SELECT chunk_id FROM chunks")).toEqual([{ chunk_id: "c2" }]);
    db.close();
  });
});

describe("0044: a faction's content hash in 11 characters", () => {
  it("cuts stored hashes and new ones alike, so a kept faction still pairs with its hash at the next reading", async () => {
    const db = await storeAt41();
    expect(await db.get("SELECT content_hash FROM faction_rows")).toEqual({ content_hash: FULL_HASH.slice(0, 22) });
    await migrate(db, loadMigrations());
    expect(await db.get("SELECT content_hash FROM faction_rows")).toEqual({ content_hash: FULL_HASH.slice(0, 11) });
    expect(storedHash(FULL_HASH)).toBe(FULL_HASH.slice(0, 11));
    await insertFactions(db, [{ factionId: "fac_2", projectId: "prj_1", fileId: "fil_1", contentHash: FULL_HASH.replace("A", "B"), ordinal: 1,
      factionType: "text", inferredType: "text/markdown", location: { lineStart: 3, lineEnd: 3 }, headingPath: "[]", text: "Zod" }]);
    expect((await liveFactionKeys(db, "fil_1")).map((f) => [f.factionId, f.contentHash])).toEqual([
      ["fac_1", storedHash(FULL_HASH)],
      ["fac_2", storedHash(FULL_HASH.replace("A", "B"))],
    ]);
    db.close();
  });
});
