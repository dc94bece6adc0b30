import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { linkCellEntities } from "../../../src/store/graph/entities.js";
import { unlinkPairs } from "../../../src/store/graph/mention-links.js";
import { retireCells } from "../../../src/store/graph/cells.js";
import { insertFactions } from "../../../src/store/graph/factions.js";
import { readEntityPage } from "../../../src/store/graph/entity-reads.js";
import { SEED_TIME, seedProjectFile } from "../../support/old-store-seed.js";

const NOW = SEED_TIME;

/** Each entity's live cells counted from the links: what the kept counts must equal. */
async function counted(db: Db): Promise<Record<string, number>> {
  const rows = await db.all<{ entity_id: string; n: number }>(
    `SELECT e.entity_id, count(c.rowid) AS n FROM entity_rows e
     LEFT JOIN cell_entities ce ON ce.entity_rowid = e.rowid
     LEFT JOIN cell_rows c ON c.rowid = ce.cell_rowid AND c.retired_at IS NULL
     GROUP BY e.entity_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.entity_id, Number(r.n)]));
}

async function kept(db: Db): Promise<Record<string, number>> {
  const rows = await db.all<{ entity_id: string; n: number }>(
    `SELECT e.entity_id, coalesce(ec.live, 0) AS n FROM entity_rows e LEFT JOIN entity_cell_counts ec ON ec.entity_rowid = e.rowid`,
  );
  return Object.fromEntries(rows.map((r) => [r.entity_id, Number(r.n)]));
}

/** A store before 0038: three entities, four cells (one retired), five links. */
async function before0038(): Promise<Db> {
  const db = await openDatabase({ url: ":memory:" });
  await migrate(db, loadMigrations().filter((m) => m.version < 38));
  await seedProjectFile(db, { path: "guide.md", contentType: "text/markdown", fileType: "document" });
  await insertFactions(db, [{ factionId: "fac_1", projectId: "prj_1", fileId: "fil_1", contentHash: "h", ordinal: 0, factionType: "text",
    inferredType: "text/markdown", location: { lineStart: 1, lineEnd: 2 }, headingPath: "[]", text: "Berlin and Lima" }]);
  // Written as the rows of that shape (today's `insertCells` writes columns added since).
  for (const [ordinal, cellId] of ["cel_1", "cel_2", "cel_3", "cel_4"].entries()) {
    await db.execute(
      `INSERT INTO cell_rows (cell_id, project_rowid, file_rowid, faction_rowid, ordinal, text, updated_at) VALUES (?, 1, 1, 1, ?, ?, ?)`,
      [cellId, ordinal, `text of ${cellId}`, NOW],
    );
  }
  await db.execute("UPDATE cell_rows SET retired_at = ? WHERE cell_id = 'cel_4'", [NOW]);
  for (const id of ["ent_berlin", "ent_lima", "ent_none"]) {
    await db.execute(
      `INSERT INTO entity_rows (entity_id, project_rowid, name, norm_name, kind, source_key)
       VALUES (?, (SELECT rowid FROM projects WHERE project_id = 'prj_1'), ?, ?, 'place', ?)`,
      [id, id.slice(4), id.slice(4), `name:${id}`],
    );
  }
  await linkCellEntities(db, [
    { cellId: "cel_1", entityId: "ent_berlin" }, { cellId: "cel_2", entityId: "ent_berlin" }, { cellId: "cel_4", entityId: "ent_berlin" },
    { cellId: "cel_3", entityId: "ent_lima" }, { cellId: "cel_4", entityId: "ent_lima" },
  ]);
  return db;
}

describe("0038: each entity's live cells, kept as links and cells change", () => {
  it("counts the links of an old store on upgrade, live cells only", async () => {
    const db = await before0038();
    await migrate(db, loadMigrations());
    expect(await kept(db)).toEqual({ ent_berlin: 2, ent_lima: 1, ent_none: 0 });
    expect(await kept(db)).toEqual(await counted(db));
    db.close();
  });

  it("follows links added and removed, cells retired, restored and deleted, and entities deleted", async () => {
    const db = await before0038();
    await migrate(db, loadMigrations());
    const steps: Array<[string, () => Promise<unknown>]> = [
      ["link to a live cell, twice", () => linkCellEntities(db, [{ cellId: "cel_3", entityId: "ent_none" }, { cellId: "cel_3", entityId: "ent_none" }])],
      ["link to a retired cell", () => linkCellEntities(db, [{ cellId: "cel_4", entityId: "ent_none" }])],
      ["unlink a live and a retired cell", () => unlinkPairs(db, [{ cellId: "cel_1", entityId: "ent_berlin" }, { cellId: "cel_4", entityId: "ent_lima" }])],
      ["retire a cell", () => retireCells(db, ["cel_3"], NOW)],
      ["retire it again", () => retireCells(db, ["cel_3"], NOW)],
      ["restore a cell", () => db.execute("UPDATE cell_rows SET retired_at = NULL WHERE cell_id IN ('cel_3', 'cel_4')")],
      ["delete a live cell", () => db.execute("DELETE FROM cell_rows WHERE cell_id = 'cel_2'")],
      ["delete an entity", () => db.execute("DELETE FROM entity_rows WHERE entity_id = 'ent_lima'")],
      ["delete the file", () => db.execute("DELETE FROM files WHERE file_id = 'fil_1'")],
    ];
    const seen: Array<[string, Record<string, number>]> = [];
    for (const [name, step] of steps) {
      await step();
      expect([name, await kept(db)]).toEqual([name, await counted(db)]);
      seen.push([name, await kept(db)]);
    }
    // The steps moved the counts both ways: the comparison above was not of zeros.
    expect(seen[0]![1]).toEqual({ ent_berlin: 2, ent_lima: 1, ent_none: 1 });
    expect(seen[5]![1]).toEqual({ ent_berlin: 2, ent_lima: 1, ent_none: 2 });
    expect(seen.at(-1)![1]).toEqual({ ent_berlin: 0, ent_none: 0 });
    expect(await db.get("SELECT count(*) AS n FROM entity_cell_counts WHERE entity_rowid NOT IN (SELECT rowid FROM entity_rows)")).toEqual({ n: 0 });
    db.close();
  });

  it("lists only entities backing a live cell, each with its count", async () => {
    const db = await before0038();
    await migrate(db, loadMigrations());
    const page = await readEntityPage(db, { projectIds: ["prj_1"] }, undefined, 10);
    expect(page.map((e) => [e.entityId, e.cellCount])).toEqual([["ent_berlin", 2], ["ent_lima", 1]]);
    await retireCells(db, ["cel_3"], NOW);
    expect((await readEntityPage(db, { projectIds: ["prj_1"] }, undefined, 10)).map((e) => e.entityId)).toEqual(["ent_berlin"]);
    db.close();
  });
});
