import { afterEach, describe, expect, it } from "vitest";
import { retirePaths } from "../../src/ingest/accept/ingest-batch.js";
import { readVarints } from "../../src/store/search/search-totals.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

/**
 * A project re-read across edits and removals must rank as one read once
 * at its last state: FTS5's bm25() takes its document count and average
 * lengths from each full-text table's totals record, which a contentless
 * delete leaves as it was unless the store takes the deleted rows out.
 */

const TABLES = ["cells_fts", "files_fts", "symbols_fts"] as const;

const parser = (extra: string) =>
  `/** Parses the configuration text. */\nexport function parseConfig(text: string) { return text.trim(); }\n${extra}`;
const guide = (body: string) => `# Config guide\n\nThe parseConfig helper reads ${body}.\n\n## Loading\n\nCall loadConfig first, then parseConfig.\n`;
const LOADER = "/** Loads the configuration file. */\nexport function loadConfig(path: string) { return path; }\n";
const LEGACY = "/** The old configuration parser. */\nexport function legacyParse(text: string) { return text; }\nexport const legacyConfig = 1;\n";

async function ingestAll(w: TestWorld, files: Record<string, string>): Promise<void> {
  await ingest(w, Object.entries(files).map(([path, text]) => fileEntry(path, text)));
  await w.app.worker.whenIdle();
}

/** Each table's totals record: rows, then tokens per column. */
async function totals(w: TestWorld): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const t of TABLES) {
    const row = await w.app.deps.db.get<{ block: ArrayBuffer }>(`SELECT block FROM ${t}_data WHERE id = 1`);
    out[t] = readVarints(new Uint8Array(row!.block));
  }
  return out;
}

/** BM25 of the live declarations and cells matching `config`, keyed by what they hold (rowids differ between stores). */
async function scores(w: TestWorld): Promise<string[]> {
  const db = w.app.deps.db;
  const symbols = await db.all<{ k: string; b: number }>(
    `SELECT s.qualified_name AS k, bm25(symbols_fts, 4, 2, 1, 1.5, 1) AS b FROM symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid
     WHERE symbols_fts MATCH 'config' AND s.retired_at IS NULL`,
  );
  const cells = await db.all<{ k: string; b: number }>(
    `SELECT c.text AS k, bm25(cells_fts) AS b FROM cells_fts JOIN cells c ON c.rowid = cells_fts.rowid
     WHERE cells_fts MATCH 'config' AND c.retired_at IS NULL`,
  );
  return [...symbols.map((r) => `symbol ${r.k} ${r.b.toFixed(9)}`), ...cells.map((r) => `cell ${r.k} ${r.b.toFixed(9)}`)].sort();
}

describe("full-text totals across re-reads", () => {
  const worlds: TestWorld[] = [];
  afterEach(async () => {
    for (const w of worlds.splice(0)) await w.close();
  });

  it("equal a fresh read's after files are replaced and retired, and so do the BM25 scores", async () => {
    const synced = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
    const fresh = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
    worlds.push(synced, fresh);
    await ingestAll(synced, { "src/parse.ts": parser(""), "src/load.ts": LOADER, "src/legacy.ts": LEGACY, "docs/guide.md": guide("a file") });
    await ingestAll(synced, { "src/parse.ts": parser("export const defaultConfig = {};\n"), "docs/guide.md": guide("the config text") });
    expect(await retirePaths({ projectId: synced.projectId }, ["src/legacy.ts"], synced.app.tools)).toBe(1);
    await synced.app.worker.whenIdle();
    await ingestAll(fresh, { "src/parse.ts": parser("export const defaultConfig = {};\n"), "src/load.ts": LOADER, "docs/guide.md": guide("the config text") });

    const kept = await totals(synced);
    expect(kept).toEqual(await totals(fresh));
    for (const t of TABLES) {
      const live = await synced.app.deps.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${t}_docsize`);
      expect(kept[t]![0]).toBe(Number(live!.n));
    }
    const ranked = await scores(synced);
    expect(ranked.length).toBeGreaterThan(3);
    expect(ranked).toEqual(await scores(fresh));
  });
});
