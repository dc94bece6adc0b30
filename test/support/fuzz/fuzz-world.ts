/**
 * A test world for fuzzing: the product's action catalog, no practical rate
 * limit, a few documents and code files read so every read has rows, and
 * the real ids and paging cursors of what was read (fuzzed requests name
 * them as often as they name made-up ones).
 */
import { actions } from "../../../tools/index.js";
import { fileEntry, ingest } from "../ingest-helpers.js";
import { createTestWorld, send } from "../test-app.js";
import type { TestWorld } from "../test-app.js";

/** Real ids, names and cursors of a fuzz world. */
export interface KnownIds {
  projectIds: string[];
  fileIds: string[];
  leaseIds: string[];
  entityIds: string[];
  entityNames: string[];
  factionIds: string[];
  cellIds: string[];
  chunkIds: string[];
  paths: string[];
  symbols: string[];
  /** Cursors handed out by the paged reads and by `memory_query`'s list mode. */
  cursors: string[];
}

const PARAGRAPH = (i: number) =>
  `Paragraph ${i}. Ada Lovelace wrote notes on the Analytical Engine for Charles Babbage in London. The Ledger service stores invoices in PostgreSQL.\n\n`;

/** The seeded corpus: prose with headings and names, and code in two languages. */
export const SEED_FILES: ReadonlyArray<[string, string]> = [
  ["README.md", `# Ledger\n\nThe Ledger service keeps accounts for Acme Corporation.\n\n## Setup\n\nRun \`npm start\` after installing Node.\n\n${Array.from({ length: 40 }, (_, i) => PARAGRAPH(i)).join("")}`],
  ["docs/guide.md", `# Guide\n\n## Invoices\n\nAn invoice belongs to one account. Grace Hopper reviewed the design in Paris.\n\n${Array.from({ length: 30 }, (_, i) => PARAGRAPH(100 + i)).join("")}`],
  ["src/ledger.ts", "/** Totals the invoices. */\nexport function totalInvoices(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n\nexport class Ledger {\n  add(amount: number): void {\n    totalInvoices([amount]);\n  }\n}\n"],
  ["tools/report.py", "def render_report(rows):\n    \"\"\"Renders rows.\"\"\"\n    return '\\n'.join(str(r) for r in rows)\n\nclass Report:\n    def run(self):\n        return render_report([])\n"],
  ["data/accounts.csv", "id,name,balance\n1,Acme,100\n2,Globex,250\n"],
];

/** Builds a world, reads the seed files in and collects their ids and cursors. */
export async function createFuzzWorld(options: { dbUrl?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ w: TestWorld; ids: KnownIds }> {
  const w = await createTestWorld({ actions, dbUrl: options.dbUrl, env: { PKS_RATE_LIMIT: "1000000", ...options.env } });
  const { res } = await ingest(w, SEED_FILES.map(([path, text]) => fileEntry(path, text)), w.keys.owner);
  if (res.status !== 200) throw new Error(`seeding the fuzz world failed: ${res.status}`);
  await w.app.worker.whenIdle();
  return { w, ids: await knownIds(w) };
}

async function column(w: TestWorld, sql: string): Promise<string[]> {
  const rows = await w.app.deps.db.all<Record<string, unknown>>(sql);
  return rows.map((r) => String(Object.values(r)[0]));
}

/** The world's real ids, and one cursor from each paged read (pages of one row). */
export async function knownIds(w: TestWorld): Promise<KnownIds> {
  const ids: KnownIds = {
    projectIds: [w.projectId, w.otherProjectId],
    fileIds: await column(w, "SELECT file_id FROM files ORDER BY file_id"),
    leaseIds: await column(w, "SELECT lease_id FROM leases"),
    entityIds: await column(w, "SELECT entity_id FROM entities ORDER BY entity_id LIMIT 50"),
    entityNames: await column(w, "SELECT name FROM entities ORDER BY entity_id LIMIT 50"),
    factionIds: await column(w, "SELECT faction_id FROM factions ORDER BY faction_id LIMIT 50"),
    cellIds: await column(w, "SELECT cell_id FROM cells ORDER BY cell_id LIMIT 50"),
    chunkIds: await column(w, "SELECT DISTINCT chunk_id FROM chunks"),
    paths: await column(w, "SELECT path FROM files"),
    symbols: await column(w, "SELECT qualified_name FROM symbols LIMIT 20"),
    cursors: [],
  };
  for (const read of ["cells", "entities", "factions", "files"]) {
    const res = await send(w, `/v1/projects/${w.projectId}/${read}?limit=1`, { key: w.keys.owner });
    const cursor = res.headers.get("x-next-cursor");
    if (cursor) ids.cursors.push(cursor);
  }
  for (const kind of ["cells", "entities"]) {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.owner, project: w.projectId, json: { action: "memory_query", input: { kind } } });
    const cursor = ((await res.json()) as { result?: { nextCursor?: string } }).result?.nextCursor;
    if (cursor) ids.cursors.push(cursor);
  }
  if (ids.fileIds.length === 0 || ids.cursors.length < 4) throw new Error(`the fuzz world has too little to fuzz: ${JSON.stringify(ids).slice(0, 300)}`);
  return ids;
}
