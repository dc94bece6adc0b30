import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import { filePostings, searchCellPool, searchCells, searchFiles } from "../../src/store/search/lexical-search.js";
import { CANDIDATES_PER_ROW } from "../../src/store/search/scored-first.js";
import { rankedDeclarations } from "../../src/store/search/symbol-search.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { countingReads } from "../support/counting-reads.js";
import { fileEntry } from "../support/ingest-helpers.js";

// The other project's files say the word often (its best scores), the main project's once: a search of the
// main project finds none of its rows among the best candidates and must search the exact way.
const OTHER = Array.from({ length: 6 }, (_, i) => [
  `lantern-${i}.ts`,
  `/** Lantern lantern lantern: the lantern's light. */\nexport function lanternLight${i}(lantern: number): number {\n  return lantern * ${i};\n}\n`,
]);
const MAIN = [
  ["guide.md", "# Guide\n\nThe hall has one lantern by the door.\n\nThe stairs lead to the attic.\n\nThe cellar holds the wine.\n"],
  ["light.ts", "/** Turns the hall's lantern on. */\nexport function switchOn(): void {\n  console.log('on');\n}\n"],
];

describe("searches scored first, filtered after", () => {
  let w: TestWorld;
  const put = async (project: string, key: string, files: string[][]) => {
    const res = await send(w, `/v1/projects/${project}/ingest`, { method: "POST", key, json: { files: files.map(([p, t]) => fileEntry(p!, t!)) } });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await put(w.otherProjectId, w.keys.outsider, OTHER);
    await put(w.projectId, w.keys.editor, MAIN);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("gives the rows of the exact search, in one statement when the candidates hold them and in a second when the filter cut them", async () => {
    const db = w.app.deps.db;
    const match = '"lantern" OR "light"';
    for (const [project, statements] of [[w.otherProjectId, 1], [w.projectId, 2]] as const) {
      const c = countingReads(db);
      const pool = await searchCellPool(c.q, [project], match, 2, { fileIds: [], maxFiles: 0, perFile: 1 });
      expect(pool.hits.length).toBeGreaterThan(0);
      expect(pool.hits).toEqual(await searchCells(db, [project], match, 2));
      expect(c.reads(), `cells of ${project}`).toBe(statements);
    }
    // The documents' best cells are the project's, as in the exact search (restricted to all its files, the pool searches so).
    const ids = new Map((await db.all<{ path: string; file_id: string }>("SELECT path, file_id FROM files")).map((r) => [r.path, r.file_id]));
    const documents = { fileIds: [ids.get("lantern-1.ts")!, ids.get("light.ts")!, ids.get("guide.md")!], maxFiles: 2, perFile: 1 };
    // `attic` is the main project's word alone: its cell is the best candidate, so the pool is scored first.
    const words = '"attic" OR "lantern"';
    const c = countingReads(db);
    const scored = await searchCellPool(c.q, [w.projectId], words, 1, documents);
    expect(c.reads()).toBe(1);
    const exact = await searchCellPool(db, [w.projectId], words, 1, documents, [ids.get("light.ts")!, ids.get("guide.md")!]);
    expect(scored).toEqual(exact);
    expect(scored.documentCells.length).toBeGreaterThan(0);
    expect(scored.documentCells.every((c) => c.fileId !== ids.get("lantern-1.ts"))).toBe(true);
    const other = await searchCells(db, [w.otherProjectId], match, 100);
    expect(other.length).toBeGreaterThanOrEqual(2 * CANDIDATES_PER_ROW);
  });

  it("files and declarations: the projects' rows whichever way they were found", async () => {
    const db = w.app.deps.db;
    const match = '"lantern" OR "light"';
    for (const [project, statements] of [[w.otherProjectId, 1], [w.projectId, 2]] as const) {
      const files = countingReads(db);
      const found = await searchFiles(files.q, [project], match, 2);
      expect(found.length).toBeGreaterThan(0);
      expect(files.reads(), `files of ${project}`).toBe(statements);
      // Restricted to files, a search is exact at once; its rows are the same.
      const all = await searchFiles(db, [project], match, 50);
      expect(await searchFiles(db, [project], match, 2, all.map((f) => f.fileId))).toEqual(found);

      const declarations = countingReads(db);
      const ranked = await rankedDeclarations(declarations.q, [project], match, 2);
      expect(ranked.length).toBeGreaterThan(0);
      expect(declarations.reads(), `declarations of ${project}`).toBe(statements);
      expect(ranked).toEqual((await rankedDeclarations(db, [project], match, 50)).slice(0, ranked.length));
    }
    const main = await rankedDeclarations(db, [w.projectId], match, 2);
    expect(main.map((d) => d.fileId)).toEqual([expect.any(String)]);
  });

  it("reads once when fewer rows match than the limit asks", async () => {
    const c = countingReads(w.app.deps.db);
    const found = await searchFiles(c.q, [w.otherProjectId], '"lantern"', 50);
    expect(found).toHaveLength(OTHER.length);
    expect(c.reads()).toBe(1);
  });

  it("counts a word's files among the projects' live files only, and names the asked files holding it", async () => {
    const db = w.app.deps.db;
    const ids = new Map((await db.all<{ path: string; file_id: string }>("SELECT path, file_id FROM files")).map((r) => [r.path, r.file_id]));
    const guide = ids.get("guide.md")!;
    const light = ids.get("light.ts")!;
    const foreign = ids.get("lantern-0.ts")!;
    const { n, terms } = await filePostings(db, [w.projectId], ['"lantern"', '"attic"', '"nowhere"'], [guide, foreign]);
    expect(n).toBe(2);
    expect(terms).toEqual([{ df: 2, held: new Set([guide]) }, { df: 1, held: new Set([guide]) }, { df: 0, held: new Set() }]);
    await db.execute("UPDATE files SET status = 'retired' WHERE file_id = ?", [light]);
    expect((await filePostings(db, [w.projectId], ['"lantern"'], [light])).terms).toEqual([{ df: 1, held: new Set() }]);
    await db.execute("UPDATE files SET status = 'ready' WHERE file_id = ?", [light]);
  });
});
