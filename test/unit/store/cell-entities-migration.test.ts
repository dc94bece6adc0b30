import { describe, expect, it } from "vitest";
import { unlinkFileMentions } from "../../../src/store/graph/named-entities.js";
import { openDatabase } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { SEED_TIME, seedProjectFile } from "../../support/old-store-seed.js";

const NOW = SEED_TIME;

describe("cell-entity links without rowids", () => {
  it("the migration keeps every link, cascades still delete them, and a file's document links are dropped by key", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const all = loadMigrations();
    await migrate(db, all.filter((m) => m.version < 22));
    await seedProjectFile(db, { path: "guide.md", contentType: "text/markdown", fileType: "document" });
    await db.execute(
      `INSERT INTO factions (faction_id, project_id, file_id, content_hash, ordinal, faction_type, inferred_type, text, created_at, updated_at)
       VALUES ('fac_1', 'prj_1', 'fil_1', 'h', 0, 'text', 'text/markdown', 'Hono and Zod', ?, ?)`,
      [NOW, NOW],
    );
    for (const cell of ["cel_1", "cel_2"]) {
      await db.execute(
        `INSERT INTO cells (cell_id, project_id, file_id, faction_id, ordinal, text, created_at, updated_at)
         VALUES (?, 'prj_1', 'fil_1', 'fac_1', 0, 'Hono and Zod', ?, ?)`,
        [cell, NOW, NOW],
      );
    }
    for (const [id, kind, key] of [["ent_h", "product", "name:hono"], ["ent_z", "product", "name:zod"], ["ent_f", "file", "fil_1"]] as const) {
      await db.execute(
        `INSERT INTO entities (entity_id, project_id, name, norm_name, kind, source_key, created_at, updated_at)
         VALUES (?, 'prj_1', ?, ?, ?, ?, ?, ?)`,
        [id, id, id, kind, key, NOW, NOW],
      );
    }
    const links: Array<[string, string]> = [["cel_1", "ent_f"], ["cel_1", "ent_h"], ["cel_1", "ent_z"], ["cel_2", "ent_f"], ["cel_2", "ent_h"]];
    for (const [cell, entity] of links) await db.execute("INSERT INTO cell_entities (cell_id, entity_id) VALUES (?, ?)", [cell, entity]);
    await migrate(db, all);
    // Since 0030 the links are rowid pairs: read back as ids.
    const pairs = async () =>
      (await db.all<{ cell_id: string; entity_id: string }>(
        `SELECT c.cell_id, e.entity_id FROM cell_entities ce JOIN cells c ON c.rowid = ce.cell_rowid JOIN entities e ON e.rowid = ce.entity_rowid
         ORDER BY 1, 2`,
      )).map((r) => [r.cell_id, r.entity_id]);
    expect(await pairs()).toEqual(links);
    expect(await db.get<{ n: number }>("SELECT count(*) AS n FROM pragma_table_list WHERE name = 'cell_entities' AND wr = 1")).toEqual({ n: 1 });
    await db.execute("DELETE FROM entity_rows WHERE entity_id = 'ent_z'");
    await db.execute("DELETE FROM cell_rows WHERE cell_id = 'cel_2'");
    expect(await pairs()).toEqual([["cel_1", "ent_f"], ["cel_1", "ent_h"]]);
    // Document-name links go; the file's own link stays.
    await unlinkFileMentions(db, "prj_1", "fil_1");
    expect(await pairs()).toEqual([["cel_1", "ent_f"]]);
    db.close();
  });
});
