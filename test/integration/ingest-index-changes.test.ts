import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodeSites } from "../../src/store/code/reference-sites.js";
import { reindexFile } from "../../src/store/search/search-index.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

/**
 * A re-reading writes only the full-text rows and entity links it changes.
 * Each step below compares what is stored with what writing everything
 * afresh gives: every term instance of `cells_fts` and `files_fts` (through
 * fts5vocab, which reads a contentless index back) against a full
 * `reindexFile`, and the file's entity links against a fresh project that
 * read the same text once.
 */

type Instance = { term: string; doc: number; col: string; offset: number };

async function instances(w: TestWorld, table: "cells_fts" | "files_fts"): Promise<string[]> {
  const db = w.app.deps.db;
  await db.execute(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_i USING fts5vocab(main, ${table}, instance)`);
  const rows = await db.all<Instance>(`SELECT term, doc, col, offset FROM temp.${table}_i`);
  return rows.map((r) => `${r.term}|${r.doc}|${r.col}|${r.offset}`).sort();
}

/** Term instances as stored, then as a full rewrite of the file's rows gives them. */
async function storedAndRebuilt(w: TestWorld, fileId: string): Promise<{ stored: string[][]; rebuilt: string[][] }> {
  const stored = [await instances(w, "cells_fts"), await instances(w, "files_fts")];
  await w.app.deps.db.transaction((tx) => reindexFile(tx, fileId));
  const rebuilt = [await instances(w, "cells_fts"), await instances(w, "files_fts")];
  return { stored, rebuilt };
}

/** The file's links as (cell text, entity name, kind), comparable across projects. */
async function links(w: TestWorld, fileId: string): Promise<string[]> {
  const rows = await w.app.deps.db.all<{ text: string; name: string; kind: string }>(
    `SELECT c.text, e.name, e.kind FROM cells c JOIN cell_entities ce ON ce.cell_rowid = c.rowid JOIN entities e ON e.rowid = ce.entity_rowid
     WHERE c.file_id = ? AND c.retired_at IS NULL`,
    [fileId],
  );
  return rows.map((r) => `${r.text}|${r.name}|${r.kind}`).sort();
}

function document(sections: number, edit: (lines: string[]) => void = () => undefined): string {
  const lines = ["# Field guide", "", "The Atlas Survey maps rivers with the parseConfig helper.", ""];
  for (let s = 0; s < sections; s++) {
    lines.push(`## Region ${s}`, "", `Region ${s} lies north of Lake Ontario. Maria Lopez surveyed it in ${1990 + s}.`, "");
    lines.push(`- call \`loadRegion${s}\` first`, `- then ask the Ranger Office`, "");
  }
  edit(lines);
  return lines.join("\n");
}

describe("a re-reading writes only what it changes", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  it("keeps full-text rows and entity links equal to a full rewrite across edits, heading renames and removals", async () => {
    const code = "/** Parses the configuration. */\nexport function parseConfig(text: string) { return text; }\n";
    await ingest(w, [fileEntry("src/config.ts", code)]);
    const first = await ingest(w, [fileEntry("guide.md", document(30))]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;

    const edits: Array<(lines: string[]) => void> = [
      // one sentence changed
      (l) => (l[l.indexOf("Region 7 lies north of Lake Ontario. Maria Lopez surveyed it in 1997.")] = "Region 7 lies south of the Hudson River, said Maria Lopez."),
      // a heading renamed: the section below keeps its cells under a new heading path
      (l) => (l[l.indexOf("## Region 12")] = "## Upper Valley"),
      // a section removed, a line added above others (everything below moves)
      (l) => {
        const at = l.indexOf("## Region 20");
        l.splice(at, 7);
        l.splice(2, 0, "A new opening line names the Delta Institute.", "");
      },
      // a symbol mention removed
      (l) => (l[2] = "The Atlas Survey maps rivers."),
    ];
    let text: (lines: string[]) => void = () => undefined;
    for (const step of edits) {
      const prev = text;
      text = (l) => {
        prev(l);
        step(l);
      };
      await ingest(w, [fileEntry("guide.md", document(30, text))]);
      await w.app.worker.whenIdle();
      const storedLinks = await links(w, fileId);
      const { stored, rebuilt } = await storedAndRebuilt(w, fileId);
      expect(stored[0]).toEqual(rebuilt[0]);
      expect(stored[1]).toEqual(rebuilt[1]);
      expect(stored[0]!.length).toBeGreaterThan(100);

      // The same text read once by a fresh project links the same names to the same cells.
      const fresh = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
      try {
        await ingest(fresh, [fileEntry("src/config.ts", code)]);
        const once = await ingest(fresh, [fileEntry("guide.md", document(30, text))]);
        await fresh.app.worker.whenIdle();
        expect(storedLinks).toEqual(await links(fresh, once.body.accepted[0]!.fileId));
      } finally {
        await fresh.close();
      }
    }
    expect(await links(w, fileId)).not.toContain(expect.stringContaining("parseConfig"));
  });

  it("keeps a code file's references and the project's names equal to a fresh reading across edits", async () => {
    const version = (extra: string[], doc: string) =>
      [
        `/** ${doc} */`,
        "export function parseConfig(text: string): Config { return { text, size: measure(text) }; }",
        ...extra,
        "export function measure(text: string): number { return text.length; }",
        "export interface Config { text: string; size: number }",
      ].join("\n");
    const steps = [
      version([], "Parses the configuration."),
      version([], "Parses the configuration, word by word."), // a doc word: no reference moves
      version(["", "export const limit = measure('abc');"], "Parses it."), // a line added: the rows below move
      version(["export const cap = parseConfig('x').size;"], "Parses it."), // a name gone, one new
    ];
    const rowsOf = async (world: TestWorld, fileId: string) => {
      const packed = await world.app.deps.db.all<{ path: string; name: string; folded: string; usage: number; n: number; sites: string }>(
        "SELECT f.path, r.name, r.folded, r.usage, r.n, r.sites FROM code_reference_sites r JOIN files f ON f.rowid = r.file_rowid WHERE f.file_id = ?",
        [fileId],
      );
      for (const p of packed) expect(decodeSites(p.sites)).toHaveLength(Number(p.n));
      const refs = packed.flatMap(({ sites, n: _n, ...row }) => decodeSites(sites).map((site) => ({ ...row, ...site })));
      const names = await world.app.deps.db.all<{ folded: string }>("SELECT folded FROM code_names ORDER BY folded");
      return { refs: refs.map((r) => JSON.stringify(r)).sort(), names: names.map((n) => n.folded) };
    };
    const first = await ingest(w, [fileEntry("src/config.ts", steps[0]!)]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    // Packed rows written to code_reference_sites, counted by temporary triggers on the app's own connection.
    const db = w.app.deps.db;
    await db.execute("CREATE TEMP TABLE ref_writes (n INTEGER)");
    await db.execute("CREATE TEMP TRIGGER ref_deleted AFTER DELETE ON main.code_reference_sites BEGIN INSERT INTO ref_writes VALUES (1); END");
    await db.execute("CREATE TEMP TRIGGER ref_inserted AFTER INSERT ON main.code_reference_sites BEGIN INSERT INTO ref_writes VALUES (1); END");
    const writes = async () => Number((await db.get<{ n: number }>("SELECT count(*) AS n FROM ref_writes"))!.n);
    for (const [i, text] of steps.slice(1).entries()) {
      const before = await writes();
      await ingest(w, [fileEntry("src/config.ts", text)]);
      await w.app.worker.whenIdle();
      // A doc word moves no reference: no row is deleted or inserted. A moved line rewrites only the rows below it.
      if (i === 0) expect(await writes()).toBe(before);
      else expect(await writes()).toBeGreaterThan(before);
      const fresh = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
      try {
        const once = await ingest(fresh, [fileEntry("src/config.ts", text)]);
        await fresh.app.worker.whenIdle();
        const a = await rowsOf(w, fileId);
        const b = await rowsOf(fresh, once.body.accepted[0]!.fileId);
        expect(a.refs.length).toBeGreaterThan(5);
        expect(a).toEqual(b);
      } finally {
        await fresh.close();
      }
    }
  });
});
