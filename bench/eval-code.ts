/**
 * code_context_pack on real tasks against BM25 over declarations packed to
 * the same budget, in the same run and on the same store: plain BM25
 * (BM25-decl) and BM25 given the product's identifier splitting and task
 * terms (BM25-decl+; see bench/lib/declaration-bm25.ts).
 *
 * Sources: SWE-bench Lite instances on fetched mirrors (--data DIR or
 * PKS_BENCH_DATA: swebench-lite/; gold: the patched file and the hunk headers' functions),
 * and tasks mined from a TypeScript repository's history (commit message →
 * the declarations the diff touched on the parent). Each repository's trees
 * are ingested through the real pipeline, commit after commit, sending only
 * changed files. Tasks are split by id into a tuning third and a reporting
 * two thirds; the defaults were chosen on the tuning third.
 *
 *   node --import tsx bench/eval-code.ts [--per-repo N] [--mined N] [--mirrors DIR | PKS_MIRRORS] [--data DIR | PKS_BENCH_DATA]
 *        [--ts-repo owner/name] [--ts-src DIR] [--sources swe,mined] [--repos a/b,c/d] [--budget N] [--tune]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { ensureLocalProject } from "../src/access/local-project.js";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { codeContextPack } from "../src/retrieve/code/code-context-pack.js";
import { rankDeclarations } from "../src/retrieve/code/rank-declarations.js";
import type { CodeContextPackRequest } from "../src/retrieve/code/code-context-pack.js";
import { minedGroup, mirrorOf, sweBenchGroups } from "./lib/code-tasks.js";
import type { CodeTask, TaskGroup } from "./lib/code-tasks.js";
import { DeclarationBm25 } from "./lib/declaration-bm25.js";
import type { BaselineKind } from "./lib/declaration-bm25.js";
import type { ChangedFile } from "./lib/git-tree.js";
import { percentile } from "./lib/ir-metrics.js";
import { scorePack, summarize } from "./lib/pack-metrics.js";
import type { Gold, PackScore, Summary } from "./lib/pack-metrics.js";
import { TreeIngest } from "./lib/tree-ingest.js";
import { benchData, mirrorsDir } from "./lib/locations.js";
import { tuningGrid } from "./lib/code-tuning.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const PER_REPO = Number(opt("--per-repo", "8"));
const MINED = Number(opt("--mined", "150"));
const MIRRORS = mirrorsDir();
const TS_REPO = opt("--ts-repo", "kysely-org/kysely");
const TS_SRC = opt("--ts-src", "src");
const SOURCES = new Set(opt("--sources", "swe,mined").split(","));
const BUDGET = Number(opt("--budget", "4096"));
const TUNE = args.includes("--tune");
const REPOS = opt("--repos", "").split(",").filter(Boolean);
const SWE_DATA = pathToFileURL(benchData("swebench-lite/swebench_lite_test_retrieval.jsonl"));

type Tuning = NonNullable<CodeContextPackRequest["tuning"]>;
interface Outcome {
  source: string;
  id: string;
  split: "tune" | "report";
  config: string;
  ours: PackScore;
  baselines: Record<BaselineKind, PackScore>;
  msOurs: number;
  /** Rank of the first gold file among the files each ranks (Infinity when absent). */
  fileRank: number;
  baselineFileRanks: Record<BaselineKind, number>;
}

const BASELINES: readonly BaselineKind[] = ["plain", "enriched"];

/** A third of the tasks, fixed by id, for tuning; the rest for reporting. */
function splitOf(id: string): "tune" | "report" {
  let h = 2166136261;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h % 3 === 0 ? "tune" : "report";
}

/** Gold of a mined task: the innermost declaration around each line the diff touched, on the parent. */
async function minedGold(app: App, projectId: string, changed: readonly ChangedFile[]): Promise<Gold> {
  const rows = await app.deps.db.all<{ symbol_id: string; path: string; line_start: number; line_end: number; depth: number }>(
    `SELECT s.symbol_id, f.path, s.line_start, s.line_end, s.depth FROM symbols s JOIN files f ON f.file_id = s.file_id
     WHERE f.project_id = ? AND f.path IN (${changed.map(() => "?").join(", ")}) AND s.retired_at IS NULL`,
    [projectId, ...changed.map((c) => c.path)],
  );
  const gold = new Set<string>();
  for (const file of changed) {
    const decls = rows.filter((r) => r.path === file.path);
    const around = (from: number, to: number) =>
      decls.filter((d) => d.line_start <= from && to <= d.line_end).sort((a, b) => b.depth - a.depth || b.line_start - a.line_start)[0];
    for (const [start, count] of file.hunks) {
      const spans: Array<[number, number]> = count === 0 ? [[start, start + 1]] : Array.from({ length: count }, (_, i) => [start + i, start + i]);
      for (const [from, to] of spans) {
        const d = around(from, to);
        if (d) gold.add(d.symbol_id);
      }
    }
  }
  return { files: changed.map((c) => c.path), declarations: [...gold].map((symbolId) => ({ symbolId })) };
}

const firstGold = (paths: readonly string[], gold: Gold) => {
  const i = paths.findIndex((p) => gold.files.includes(p));
  return i < 0 ? Number.POSITIVE_INFINITY : i;
};

async function evaluateTask(app: App, projectId: string, baselines: readonly DeclarationBm25[], source: string, t: CodeTask, gold: Gold, configs: Map<string, Tuning>) {
  const out: Outcome[] = [];
  const scores = {} as Record<BaselineKind, PackScore>;
  const baselineFileRanks = {} as Record<BaselineKind, number>;
  for (const baseline of baselines) {
    const pack = await baseline.pack([projectId], t.task, BUDGET, app.tools.tokens);
    scores[baseline.kind] = scorePack(pack, gold);
    baselineFileRanks[baseline.kind] = firstGold([...new Set(pack.declarations.map((d) => d.filepath))], gold);
  }
  for (const [config, tuning] of configs) {
    const start = performance.now();
    const pack = await codeContextPack(app.db, { projectIds: [projectId] }, { task: t.task, budget: BUDGET, tuning }, app.tools);
    const msOurs = performance.now() - start;
    const ranking = await rankDeclarations(app.deps.db, [projectId], t.task, { declarations: [], files: [] }, tuning.weights);
    const fileRank = firstGold(ranking.files.map((f) => f.path), gold);
    out.push({ source, id: t.id, split: splitOf(t.id), config, ours: scorePack(pack, gold), baselines: scores, msOurs, fileRank, baselineFileRanks });
  }
  return out;
}

async function runGroup(group: TaskGroup, configs: Map<string, Tuning>): Promise<{ outcomes: Outcome[]; ingestSeconds: number }> {
  const root = mkdtempSync(join(tmpdir(), "pks-eval-code-"));
  const app = await createApp(loadConfig({ root, db: ":memory:" }, { PKS_LOG: "silent" }));
  const outcomes: Outcome[] = [];
  let ingestSeconds = 0;
  try {
    const local = await ensureLocalProject(app.deps.db, root);
    const tree = new TreeIngest(app, local.projectId, group.gitDir, group.keep);
    const baselines = BASELINES.map((kind) => new DeclarationBm25(app.deps.db, kind));
    for (const b of baselines) await b.create();
    for (const t of group.tasks) {
      const move = await tree.moveTo(t.commit);
      ingestSeconds += move.seconds;
      for (const b of baselines) await b.update(local.projectId, [...move.changed, ...move.removed]);
      const gold = t.gold ?? (await minedGold(app, local.projectId, t.changed ?? []));
      outcomes.push(...(await evaluateTask(app, local.projectId, baselines, group.source, t, gold, configs)));
    }
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
  return { outcomes, ingestSeconds };
}

const f3 = (x: number) => (Number.isNaN(x) ? "  n/a" : x.toFixed(3));
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "n/a");

type Reported = { label: string; ours: Summary } & Record<BaselineKind, Summary>;

function report(label: string, rows: readonly Outcome[]): Reported | undefined {
  if (rows.length === 0) return undefined;
  const ours = summarize(rows.map((r) => r.ours));
  const plain = summarize(rows.map((r) => r.baselines.plain));
  const enriched = summarize(rows.map((r) => r.baselines.enriched));
  console.log(`\n${label}: ${ours.n} tasks (${ours.withGoldDeclarations} with gold declarations)`);
  console.log(`  metric                      ours   BM25-decl  ratio   BM25-decl+  ratio`);
  const line = (name: string, key: keyof Summary) =>
    console.log(`  ${name.padEnd(26)} ${f3(ours[key])}   ${f3(plain[key])}     ${ratio(ours[key], plain[key]).padEnd(6)}  ${f3(enriched[key])}      ${ratio(ours[key], enriched[key])}`);
  line("gold-file recall", "fileRecall");
  line("  (declaration files only)", "declarationFileRecall");
  line("gold-declaration recall", "declarationRecall");
  line("precision (in gold files)", "precision");
  line("precision (gold decls)", "declarationPrecision");
  line("declarations packed", "declarations");
  line("tokens used", "used");
  const at = (k: number, rank: (r: Outcome) => number) => (rows.filter((r) => rank(r) < k).length / rows.length).toFixed(2);
  const depths = (rank: (r: Outcome) => number) => [1, 3, 5, 10, 20].map((k) => at(k, rank)).join("/");
  console.log(`  first gold file within 1/3/5/10/20 files: ours ${depths((r) => r.fileRank)}, ` +
    `BM25-decl ${depths((r) => r.baselineFileRanks.plain)}, BM25-decl+ ${depths((r) => r.baselineFileRanks.enriched)}`);
  const ms = rows.map((r) => r.msOurs);
  console.log(`  code_context_pack p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`);
  const holds = (b: Summary) => (ours.fileRecall >= 1.2 * b.fileRecall && ours.precision >= b.precision ? "holds" : "does not hold");
  console.log(`  target (file recall ≥ 1.2× at no lower precision): vs BM25-decl ${holds(plain)}; vs BM25-decl+ ${holds(enriched)}`);
  return { label, ours, plain, enriched };
}

function groupsToRun(): TaskGroup[] {
  const groups: TaskGroup[] = [];
  if (SOURCES.has("swe") && !existsSync(SWE_DATA)) console.log(`swe-bench: skipped: ${SWE_DATA.pathname} is missing`);
  else if (SOURCES.has("swe")) {
    const swe = sweBenchGroups(SWE_DATA.pathname, MIRRORS, PER_REPO);
    if (swe.groups.length === 0) console.log(`swe-bench: skipped: no fetched mirror under ${MIRRORS} (want ${swe.missing.join(", ")})`);
    else if (swe.missing.length > 0) console.log(`swe-bench: not fetched, left out: ${swe.missing.join(", ")}`);
    groups.push(...swe.groups.filter((g) => REPOS.length === 0 || REPOS.includes(g.repo)));
  }
  if (SOURCES.has("mined")) {
    const gitDir = mirrorOf(MIRRORS, TS_REPO);
    if (!gitDir) console.log(`mined: skipped: ${TS_REPO} is not fetched under ${MIRRORS}`);
    else groups.push(minedGroup(TS_REPO, gitDir, TS_SRC, MINED));
  }
  return groups;
}

async function main(): Promise<void> {
  const configs = TUNE ? tuningGrid() : new Map<string, Tuning>([["default", {}]]);
  const outcomes: Outcome[] = [];
  for (const group of groupsToRun()) {
    const run = await runGroup(group, configs);
    outcomes.push(...run.outcomes);
    console.log(`${group.source} ${group.repo}: ${group.tasks.length} tasks, ingest ${run.ingestSeconds.toFixed(1)} s`);
  }
  if (outcomes.length === 0) {
    console.log("skipped: no task source available");
    return;
  }
  const results = [];
  for (const config of configs.keys()) {
    const mine = outcomes.filter((o) => o.config === config);
    if (TUNE) console.log(`\n=== config ${config}`);
    for (const source of ["swe-bench", "mined"]) {
      for (const split of TUNE ? (["tune"] as const) : (["tune", "report"] as const)) {
        const r = report(`${source} / ${split}${config === "default" ? "" : ` / ${config}`}`, mine.filter((o) => o.source === source && o.split === split));
        if (r) results.push(r);
      }
    }
  }
  if (!TUNE) {
    mkdirSync(new URL("results/", import.meta.url), { recursive: true });
    writeFileSync(new URL("results/eval-code.json", import.meta.url), JSON.stringify({ at: new Date().toISOString(), budget: BUDGET, results }, null, 2));
  }
}

await main();
