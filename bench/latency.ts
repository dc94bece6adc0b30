/**
 * Latency of the retrieval actions on a 100k+ line corpus, each against a
 * bare FTS5 top-50 query on the same store, as p50/p95 and ratios.
 *
 * The corpus is ingested through the real pipeline into a temporary file
 * database. Queries come from the corpus itself: for sampled documented
 * declarations, the first sentence of the doc comment is the task (for
 * memory_query and code_context_pack, budget 4096) and the name's first
 * four letters the typed prefix (code_references). Every action is timed
 * through `app.service.invoke`, as REST and MCP run it.
 *
 *   node --import tsx bench/latency.ts [DIR] [--rounds N] [--queries N]
 *
 * Without DIR: TypeScript's own `lib/*.d.ts` and hono's `dist` JavaScript
 * from node_modules (about 100k lines).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ensureLocalProject, localPrincipal } from "../src/access/local-project.js";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { languageForPath } from "../src/code/extract-code.js";
import { loadConfig } from "../src/config.js";
import type { Principal } from "../src/access/principal.js";
import { ingestBatch } from "../src/ingest/accept/ingest-batch.js";
import { ftsAnyOf, queryTerms } from "../src/retrieve/query-terms.js";
import { searchCells } from "../src/store/search/lexical-search.js";
import { percentile } from "./lib/ir-metrics.js";
import { walkFiles } from "./lib/walk-files.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback);
const ROUNDS = opt("--rounds", 3);
const QUERIES = opt("--queries", 50);
const DIR = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const BATCH_BYTES = 8 * 1_048_576;

interface Query {
  task: string;
  prefix: string;
}


function corpus(): Array<{ path: string; bytes: Buffer }> {
  const lib = join(ROOT, "node_modules", "typescript", "lib");
  const paths = DIR
    ? walkFiles(DIR, (p) => languageForPath(p) !== undefined)
    : [...readdirSync(lib).filter((n) => n.endsWith(".d.ts")).map((n) => join(lib, n)), ...walkFiles(join(ROOT, "node_modules", "hono", "dist"), (p) => /\.(js|cjs|mjs)$/.test(p))];
  const base = DIR ?? join(ROOT, "node_modules");
  return paths.map((p) => ({ path: relative(base, p), bytes: readFileSync(p) }));
}

async function ingestAll(app: App, projectId: string, files: ReturnType<typeof corpus>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < files.length; ) {
    const batch: typeof files = [];
    let size = 0;
    while (i < files.length && batch.length < 200 && (batch.length === 0 || size + files[i]!.bytes.length <= BATCH_BYTES)) {
      size += files[i]!.bytes.length;
      batch.push(files[i++]!);
    }
    await ingestBatch({ projectId }, { files: batch.map((f) => ({ path: f.path, bytes: new Uint8Array(f.bytes) })) }, app.tools);
    app.worker.kick();
  }
  await app.worker.whenIdle();
  return (performance.now() - start) / 1000;
}

/** Documented declarations spread over the corpus: their doc's first sentence and their name's head. */
async function pickQueries(app: App, projectId: string): Promise<Query[]> {
  const rows = await app.deps.db.all<{ name: string; doc: string }>(
    `SELECT name, doc FROM symbols WHERE project_id = ? AND retired_at IS NULL AND length(doc) >= 40 AND length(name) >= 4 ORDER BY symbol_id`,
    [projectId],
  );
  const step = Math.max(1, Math.floor(rows.length / QUERIES));
  return rows
    .filter((_, i) => i % step === 0)
    .slice(0, QUERIES)
    .map((r) => ({ task: (r.doc.split(/(?<=[.!?])\s/)[0] ?? r.doc).slice(0, 300), prefix: r.name.slice(0, 4) }));
}

async function timed(times: number[], run: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await run();
  times.push(performance.now() - start);
}

async function measure(app: App, principal: Principal, projectId: string, queries: readonly Query[]) {
  const invoke = (action: string, input: Record<string, unknown>) => app.service.invoke(principal, { action, input, projectId });
  const t = { bare: [] as number[], memory_query: [] as number[], code_context_pack: [] as number[], code_references: [] as number[] };
  for (let round = 0; round <= ROUNDS; round++) {
    const into = (list: number[]) => (round === 0 ? [] : list);
    for (const q of queries) {
      await timed(into(t.bare), () => searchCells(app.deps.db, [projectId], ftsAnyOf(queryTerms(q.task)), 50));
      await timed(into(t.memory_query), () => invoke("memory_query", { query: q.task, budget: 4096 }));
      await timed(into(t.code_context_pack), () => invoke("code_context_pack", { task: q.task, budget: 4096 }));
      await timed(into(t.code_references), () => invoke("code_references", { query: q.prefix }));
    }
  }
  return t;
}

async function main(): Promise<void> {
  const files = corpus();
  const lines = files.reduce((sum, f) => sum + f.bytes.toString("utf8").split("\n").length, 0);
  console.log(`corpus: ${files.length} files, ${lines.toLocaleString("en-US")} lines${lines < 100_000 ? " (under 100k lines)" : ""}`);
  const root = mkdtempSync(join(tmpdir(), "pks-bench-latency-"));
  const app = await createApp(loadConfig({ root, db: `file:${join(root, "pks.db")}` }, { PKS_LOG: "silent" }));
  try {
    const local = await ensureLocalProject(app.deps.db, root);
    console.log(`ingest: ${(await ingestAll(app, local.projectId, files)).toFixed(1)} s`);
    const queries = await pickQueries(app, local.projectId);
    if (queries.length === 0) {
      console.log("skipped: the corpus has no documented declarations to draw queries from");
      return;
    }
    const t = await measure(app, localPrincipal(local), local.projectId, queries);
    console.log(`${queries.length} queries × ${ROUNDS} rounds (after one warm-up round)`);
    const p = (xs: number[], q: number) => percentile(xs, q);
    for (const [name, xs] of Object.entries(t)) {
      const label = name === "bare" ? "bare FTS5 top-50" : name;
      const ratios = name === "bare" ? "" : `   ×bare: p50 ${(p(xs, 50) / p(t.bare, 50)).toFixed(1)}, p95 ${(p(xs, 95) / p(t.bare, 95)).toFixed(1)}`;
      console.log(`${label.padEnd(18)} p50 ${p(xs, 50).toFixed(2).padStart(8)} ms  p95 ${p(xs, 95).toFixed(2).padStart(8)} ms${ratios}`);
    }
    for (const name of ["memory_query", "code_context_pack"] as const) {
      const ratio = p(t[name], 95) / p(t.bare, 95);
      console.log(`target ${name} p95 < 10× bare FTS5: ${ratio < 10 ? "holds" : "does not hold"} (${ratio.toFixed(1)}×)`);
    }
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
