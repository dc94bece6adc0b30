import { describe, expect, it } from "vitest";
import { usagesInSpans, usagesNamed } from "../../../src/store/code/code-graph-reads.js";
import { countReferencesWithPrefix, referencesNamed, referencesWithPrefix } from "../../../src/store/code/code-references.js";
import { updateFileReferences } from "../../../src/store/code/reference-changes.js";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";

const NOW = "2026-01-01T00:00:00.000Z";

/** A project with two code files, as the tables stood before references were packed. */
async function seedFiles(db: Db): Promise<void> {
  await db.execute("INSERT INTO projects (project_id, name, created_at) VALUES ('prj_1', 'p', ?)", [NOW]);
  await db.execute("INSERT INTO chunks (project_id, chunk_id, bytes, size, created_at) VALUES ('prj_1', 'c1', x'00', 1, ?)", [NOW]);
  for (const [id, path] of [["fil_a", "src/a.ts"], ["fil_b", "src/b.ts"]] as const) {
    await db.execute(
      `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, created_at, updated_at)
       VALUES (?, 'prj_1', ?, 'text/x-typescript', 'code', 1, 'c1', 'ready', ?, ?)`,
      [id, path, NOW, NOW],
    );
  }
}

/** One-per-occurrence rows, inserted out of listing order: [file, path, name, kind, lineStart, lineEnd, nameLine, nameCol, symbolId]. */
const OLD_ROWS: Array<[string, string, string, string, number, number, number, number, string | null]> = [
  ["fil_b", "src/b.ts", "parse", "usage", 9, 9, 9, 4, null],
  ["fil_a", "src/a.ts", "parse", "usage", 12, 12, 12, 20, null],
  ["fil_a", "src/a.ts", "parse", "declaration", 3, 8, 3, 16, "sym_parse-1"],
  ["fil_a", "src/a.ts", "parse", "usage", 12, 12, 12, 2, null],
  ["fil_a", "src/a.ts", "Parse", "usage", 2, 2, 2, 7, null],
  ["fil_a", "src/a.ts", "parser", "usage", 5, 5, 5, 1, null],
  ["fil_a", "src/a.ts", "measure", "usage", 4, 4, 4, 9, null],
];

async function oldDatabase(): Promise<Db> {
  const db = await openDatabase({ url: ":memory:" });
  const all = loadMigrations();
  await migrate(db, all.filter((m) => m.version < 21));
  await seedFiles(db);
  for (const [file, path, name, kind, ls, le, nl, nc, sym] of OLD_ROWS) {
    await db.execute(
      `INSERT INTO code_references (project_id, file_id, path, name, folded, kind, line_start, line_end, name_line, name_col, symbol_id)
       VALUES ('prj_1', ?, ?, ?, lower(?), ?, ?, ?, ?, ?, ?)`,
      [file, path, name, name, kind, ls, le, nl, nc, sym],
    );
  }
  await db.execute("INSERT INTO code_names (project_id, folded) SELECT DISTINCT project_id, folded FROM code_references");
  await migrate(db, all);
  return db;
}

const brief = (r: { path: string; name: string; kind: string; lineStart: number; lineEnd: number; nameLine: number; nameCol: number; symbolId: string | null }) =>
  `${r.path} ${r.name} ${r.kind} ${r.lineStart}-${r.lineEnd} @${r.nameLine}:${r.nameCol} ${r.symbolId ?? "-"}`;

describe("packed reference sites", () => {
  it("the migration keeps every occurrence, listed in the order the old index gave", async () => {
    const db = await oldDatabase();
    expect((await referencesWithPrefix(db, "prj_1", "pars", 100)).map(brief)).toEqual([
      "src/a.ts Parse usage 2-2 @2:7 -",
      "src/a.ts parse declaration 3-8 @3:16 sym_parse-1",
      "src/a.ts parse usage 12-12 @12:2 -",
      "src/a.ts parse usage 12-12 @12:20 -",
      "src/b.ts parse usage 9-9 @9:4 -",
      "src/a.ts parser usage 5-5 @5:1 -",
    ]);
    expect((await referencesNamed(db, "prj_1", "parse", 3)).map(brief)).toEqual([
      "src/a.ts Parse usage 2-2 @2:7 -",
      "src/a.ts parse declaration 3-8 @3:16 sym_parse-1",
      "src/a.ts parse usage 12-12 @12:2 -",
    ]);
    expect(await countReferencesWithPrefix(db, "prj_1", "pars")).toBe(6);
    expect(await countReferencesWithPrefix(db, "prj_1", "")).toBe(7);
    expect(await usagesNamed(db, ["prj_1"], ["parse"], 2)).toEqual([
      { fileId: "fil_a", name: "parse", line: 12 },
      { fileId: "fil_a", name: "parse", line: 12 },
    ]);
    // In the file's reading order (line, then column), whatever the name.
    expect(await usagesInSpans(db, [{ fileId: "fil_a", lineStart: 2, lineEnd: 5 }])).toEqual([
      { fileId: "fil_a", name: "Parse", line: 2 },
      { fileId: "fil_a", name: "measure", line: 4 },
      { fileId: "fil_a", name: "parser", line: 5 },
    ]);
    db.close();
  });

  it("a re-read rewrites only the packed rows that changed, and a file's last reference takes its name along", async () => {
    const db = await oldDatabase();
    const file = { projectId: "prj_1", fileId: "fil_b", path: "src/b.ts" };
    const usage = (name: string, line: number, col: number) => ({ name, kind: "usage" as const, lineStart: line, lineEnd: line, nameLine: line, nameCol: col, symbolId: null });
    await updateFileReferences(db, file, [usage("parse", 9, 4), usage("render", 10, 0)]);
    const rows = await db.all<{ name: string; sites: string }>(
      "SELECT name, sites FROM code_reference_sites WHERE file_rowid = (SELECT rowid FROM files WHERE file_id = 'fil_b') ORDER BY name",
    );
    expect(rows).toEqual([{ name: "parse", sites: "9:4" }, { name: "render", sites: "10:0" }]);
    await updateFileReferences(db, { projectId: "prj_1", fileId: "fil_a", path: "src/a.ts" }, []);
    const names = await db.all<{ folded: string }>("SELECT folded FROM code_names ORDER BY folded");
    expect(names.map((n) => n.folded)).toEqual(["parse", "render"]);
    // A deleted file's rows go with it (a rowid is no foreign key).
    await db.execute("DELETE FROM projects WHERE project_id = 'prj_1'");
    expect(await db.get("SELECT count(*) AS n FROM code_reference_sites")).toEqual({ n: 0 });
    db.close();
  });
});
