/**
 * code_context_pack on tasks mined from TypeScript histories (commit message
 * → the declarations its diff touched, asked on the parent commit), beside
 * two baselines run in the same process on the same trees:
 *
 * - BM25-decl: BM25 over declarations, each one document of its full text
 *   (qualified name, header, doc, path, whole body), cut at as many
 *   declarations as code_context_pack packed for that task;
 * - BM25-file: BM25 over whole files (path and full text), for file Acc@k.
 *
 * File Acc@k is as SWE-bench localisation publishes it: a task counts when
 * every gold file is within the top k files. Ours ranks files as the pack
 * names them: its `files` list (relevance order; tests and duplicate copies
 * left out), then any further file of its declarations.
 *
 * Repositories (bench/lib/code-tasks.ts MINED_REPOS) are either tuning or
 * reporting ones; weights and heuristics were chosen on the tuning ones
 * only. `--show N` prints the first N misses of tuning repositories (never
 * of reporting ones): tasks whose gold files are not all within our top 5.
 *
 *   node --import tsx bench/eval-code.ts [--mirrors DIR | PKS_MIRRORS] [--repos a/b,c/d] [--role tune|report]
 *        [--limit N] [--budget N] [--tune [--only name,prefix]] [--show N]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ensureLocalProject } from "../src/access/local-project.js";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { codeContextPack } from "../src/retrieve/code/code-context-pack.js";
import type { CodeContextPack, CodeContextPackRequest } from "../src/retrieve/code/code-context-pack.js";
import { MINED_REPOS, minedGroup, mirrorOf } from "./lib/code-tasks.js";
import type { CodeTask, MinedRepo, TaskGroup } from "./lib/code-tasks.js";
import { tuningGrid } from "./lib/code-tuning.js";
import { DeclarationBm25 } from "./lib/declaration-bm25.js";
import { FileBm25 } from "./lib/file-bm25.js";
import type { ChangedFile } from "./lib/git-tree.js";
import { mean, percentile } from "./lib/ir-metrics.js";
import { mirrorsDir } from "./lib/locations.js";
import { scorePack, summarize } from "./lib/pack-metrics.js";
import type { Gold, PackScore, Summary } from "./lib/pack-metrics.js";
import { TreeIngest } from "./lib/tree-ingest.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const LIMIT = Number(opt("--limit", "40"));
const BUDGET = Number(opt("--budget", "4096"));
const TUNE = args.includes("--tune");
const SHOW = Number(opt("--show", "0"));
const ROLE = opt("--role", "");
const REPOS = opt("--repos", "").split(",").filter(Boolean);
const MIRRORS = mirrorsDir();

type Tuning = NonNullable<CodeContextPackRequest["tuning"]>;

interface Outcome {
  repo: string;
  role: MinedRepo["role"];
  id: string;
  config: string;
  ours: PackScore;
  bm25: PackScore;
  /** Every gold file within the top 1 / 5 files. */
  oursAcc: [boolean, boolean];
  fileAcc: [boolean, boolean];
  ms: number;
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

/** The files a pack names, in the order it ranks them. */
function packFileOrder(pack: Pick<CodeContextPack, "declarations" | "files">): string[] {
  const listed = pack.files.filter((f) => f.reason !== "test" && f.reason !== "duplicate").map((f) => f.filepath);
  return [...new Set([...listed, ...pack.declarations.map((d) => d.filepath)])];
}

const within = (ranked: readonly string[], gold: Gold, k: number) => gold.files.length > 0 && gold.files.every((f) => ranked.slice(0, k).includes(f));

async function runGroup(group: TaskGroup, role: MinedRepo["role"], configs: Map<string, Tuning>): Promise<{ outcomes: Outcome[]; ingestSeconds: number }> {
  const root = mkdtempSync(join(tmpdir(), "pks-eval-code-"));
  const app = await createApp(loadConfig({ root, db: ":memory:" }, { PKS_LOG: "silent" }));
  const outcomes: Outcome[] = [];
  let ingestSeconds = 0;
  let shown = 0;
  try {
    const local = await ensureLocalProject(app.deps.db, root);
    const projectIds = [local.projectId];
    const tree = new TreeIngest(app, local.projectId, group.gitDir, group.keep);
    const decl = new DeclarationBm25(app.deps.db, "plain");
    const files = new FileBm25(app.deps.db);
    await decl.create();
    await files.create();
    for (const t of group.tasks) {
      const move = await tree.moveTo(t.commit);
      ingestSeconds += move.seconds;
      await decl.update(local.projectId, [...move.changed, ...move.removed]);
      await files.update(move.texts, move.removed);
      const gold = t.gold ?? (await minedGold(app, local.projectId, t.changed ?? []));
      const fileRanking = await files.rank(t.task);
      const fileAcc: [boolean, boolean] = [within(fileRanking, gold, 1), within(fileRanking, gold, 5)];
      for (const [config, tuning] of configs) {
        const start = performance.now();
        const pack = await codeContextPack(app.db, { projectIds }, { task: t.task, budget: BUDGET, tuning }, app.tools);
        const ms = performance.now() - start;
        const bm25Rows = await decl.top(projectIds, t.task, pack.declarations.length);
        const order = packFileOrder(pack);
        const ours = scorePack(pack, gold);
        const oursAcc: [boolean, boolean] = [within(order, gold, 1), within(order, gold, 5)];
        outcomes.push({ repo: group.repo, role, id: t.id, config, ours, bm25: scorePack({ declarations: bm25Rows, used: 0 }, gold), oursAcc, fileAcc, ms });
        if (role === "tune" && config === "default" && shown < SHOW && !oursAcc[1]) {
          shown++;
          show(t, gold, pack, order);
        }
      }
    }
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
  return { outcomes, ingestSeconds };
}

/** One miss of a tuning repository, for reading. */
function show(t: CodeTask, gold: Gold, pack: CodeContextPack, order: readonly string[]): void {
  console.log(`\n--- ${t.id}: ${t.task.split("\n")[0]}`);
  console.log(`    gold: ${gold.files.join(", ")}`);
  console.log(`    files: ${order.slice(0, 8).join(", ")}`);
  console.log(`    decls: ${pack.declarations.slice(0, 12).map((d) => `${d.symbol}@${d.filepath.split("/").at(-1)}`).join(", ")}`);
}

const f3 = (x: number) => (Number.isNaN(x) ? "  n/a" : x.toFixed(3));
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "n/a");

interface Reported {
  label: string;
  n: number;
  ours: Summary;
  bm25: Summary;
  acc: { ours: [number, number]; bm25File: [number, number] };
  targets: { recall: boolean; declarationFileRecall: boolean; precision: boolean; acc5: boolean };
}

function report(label: string, rows: readonly Outcome[]): Reported | undefined {
  if (rows.length === 0) return undefined;
  const ours = summarize(rows.map((r) => r.ours));
  const bm25 = summarize(rows.map((r) => r.bm25));
  const share = (pick: (r: Outcome) => boolean) => mean(rows.map((r) => (pick(r) ? 1 : 0)));
  const acc = { ours: [share((r) => r.oursAcc[0]), share((r) => r.oursAcc[1])] as [number, number], bm25File: [share((r) => r.fileAcc[0]), share((r) => r.fileAcc[1])] as [number, number] };
  console.log(`\n${label}: ${ours.n} tasks (${ours.withGoldDeclarations} with gold declarations)`);
  console.log(`  metric                          ours   BM25-decl  ratio`);
  const line = (name: string, key: keyof Summary) => console.log(`  ${name.padEnd(30)} ${f3(ours[key])}   ${f3(bm25[key])}     ${ratio(ours[key], bm25[key])}`);
  line("gold-file recall", "fileRecall");
  line("  (declaration files only)", "declarationFileRecall");
  line("gold-declaration recall", "declarationRecall");
  line("precision (in gold files)", "precision");
  line("precision (gold decls)", "declarationPrecision");
  line("declarations packed", "declarations");
  console.log(`  tokens used                    ${ours.used.toFixed(0)}`);
  console.log(`  file Acc@1 / Acc@5             ours ${f3(acc.ours[0])} / ${f3(acc.ours[1])}   BM25-file ${f3(acc.bm25File[0])} / ${f3(acc.bm25File[1])}`);
  const ms = rows.map((r) => r.ms);
  console.log(`  code_context_pack p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms`);
  const targets = {
    recall: ours.fileRecall >= 1.15 * bm25.fileRecall,
    declarationFileRecall: ours.declarationFileRecall >= 1.15 * bm25.declarationFileRecall,
    precision: ours.precision >= 1.2 * bm25.precision,
    acc5: acc.ours[1] >= acc.bm25File[1] + 0.15,
  };
  const says = (ok: boolean) => (ok ? "holds" : "short");
  console.log(
    `  targets: file recall ≥ 1.15× ${says(targets.recall)} (declaration files only: ${says(targets.declarationFileRecall)}); ` +
      `precision ≥ 1.2× ${says(targets.precision)}; Acc@5 ≥ BM25-file + 0.15 ${says(targets.acc5)}`,
  );
  return { label, n: ours.n, ours, bm25, acc, targets };
}

function groupsToRun(): Array<{ group: TaskGroup; role: MinedRepo["role"] }> {
  const out: Array<{ group: TaskGroup; role: MinedRepo["role"] }> = [];
  for (const r of MINED_REPOS) {
    if (REPOS.length > 0 ? !REPOS.includes(r.repo) : ROLE !== "" && r.role !== ROLE) continue;
    const gitDir = mirrorOf(MIRRORS, r.repo);
    if (!gitDir) {
      console.log(`${r.repo}: skipped: not fetched under ${MIRRORS}`);
      continue;
    }
    out.push({ group: minedGroup(r.repo, gitDir, r.srcDirs, LIMIT), role: r.role });
  }
  return out;
}

async function main(): Promise<void> {
  const configs = TUNE ? tuningGrid(opt("--only", "").split(",").filter(Boolean)) : new Map<string, Tuning>([["default", {}]]);
  const outcomes: Outcome[] = [];
  for (const { group, role } of groupsToRun()) {
    const run = await runGroup(group, role, configs);
    outcomes.push(...run.outcomes);
    console.log(`${group.repo} (${role}): ${group.tasks.length} tasks, ingest ${run.ingestSeconds.toFixed(1)} s`);
  }
  if (outcomes.length === 0) {
    console.log("skipped: no mined repository available");
    return;
  }
  const results: Reported[] = [];
  for (const config of configs.keys()) {
    const mine = outcomes.filter((o) => o.config === config);
    if (TUNE) console.log(`\n=== config ${config}`);
    for (const repo of new Set(mine.map((o) => o.repo))) {
      const rows = mine.filter((o) => o.repo === repo);
      const r = report(`${repo} (${rows[0]!.role})${config === "default" ? "" : ` / ${config}`}`, rows);
      if (r) results.push(r);
    }
    for (const role of ["tune", "report"] as const) {
      const rows = mine.filter((o) => o.role === role);
      if (new Set(rows.map((o) => o.repo)).size > 1) {
        const r = report(`all ${role} repositories${config === "default" ? "" : ` / ${config}`}`, rows);
        if (r) results.push(r);
      }
    }
  }
  if (!TUNE) {
    mkdirSync(new URL("results/", import.meta.url), { recursive: true });
    writeFileSync(new URL("results/eval-code.json", import.meta.url), JSON.stringify({ at: new Date().toISOString(), budget: BUDGET, limit: LIMIT, results }, null, 2));
  }
}

await main();
