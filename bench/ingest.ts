/**
 * Ingest speed, memory and freshness of pks on real trees, against
 * baselines measured in the same run, with the targets beside them.
 *
 *   npm run bench -- ingest --tree DIR [--scifact FILE] [--repeat N] [--quick] [options]
 *   node --import tsx bench/ingest.ts --tree DIR [...]
 *
 * Data (flags, or environment variables; nothing is looked for elsewhere):
 *   --tree DIR         (PKS_BENCH_TREE) a code tree, e.g. a checkout of
 *                      vuejs/core. It is copied to a temporary folder first
 *                      (`.git` and `node_modules` left out), so edits never
 *                      touch it. Required unless --quick.
 *   --scifact FILE     (PKS_BENCH_SCIFACT) BEIR SciFact's `corpus.jsonl`;
 *                      each abstract is written as `<_id>.md` (`# title`,
 *                      blank line, text) into a temporary folder: the
 *                      document corpus. Without it that part is skipped and
 *                      the long edited document is built from the tree's
 *                      Markdown.
 *
 * Options:
 *   --repeat N         cold ingests of the tree into fresh projects of one
 *                      pks process (default 1; 5 for the RSS-flatness target)
 *   --quick            smoke run: the first 100 files of the tree (default
 *                      tree: node_modules/zod) and of SciFact, few samples
 *   --edits N          one-line edits per file by content replacement (20)
 *   --watch-edits N    one-line edits per file saved on disk (5)
 *   --edit-file PATH   the code file edited (relative to the tree; default:
 *                      a TypeScript file with doc comments nearest 20 kB)
 *   --idle-rounds N    rounds of the query list while idle (3)
 *   --runs N           runs of each baseline, median kept (3)
 *   --pks dist|sources which pks the host runs (dist): the compiled build,
 *                      rebuilt first with `npm run build` unless --no-build
 *                      (what `pks serve` runs), or the sources under tsx
 *                      (whose loader adds about 50–65 MB of RSS)
 *   --no-build         use dist/ as it is
 *   --cpu-prof         profile the cold ingests instead (pks process under
 *                      --cpu-prof; reader threads write their own profiles);
 *                      prints the top functions by self time
 *
 * What runs, in order:
 * 1. Baselines on the tree's files as pks's folder scan lists them: read +
 *    sha256 of every file; `ctags -R` over the tree (universal-ctags); parse
 *    only: pks's tree-sitter runtime (web-tree-sitter with the grammar
 *    packages' WASM, loaded by `src/code/parser-runtime.ts`) parsing the
 *    code files on worker threads, one per core.
 * 2. pks in its own process (`bench/lib/ingest-host.ts`; the wiring of
 *    `pks serve --root`, driven in-process): a fresh database file, the
 *    folder's project, `watchFolder` — the cold ingest is its first sync,
 *    until every file is read. Peak RSS is that process's VmHWM (reader
 *    threads included). Then `memory_query` while idle; one-line edits of a
 *    code file and of a 2,000-line Markdown file, timed from the call to the
 *    moment the marker word is found in the full-text index `memory_query`
 *    reads — by content replacement (the calls of `PUT …/chunks/{id}` and
 *    `PUT …/files/{id}/content`, in-process) and, beside it, saved on disk
 *    and picked up by the watch (its 200 ms quiet period included); then
 *    the repeated cold ingests into fresh projects; last a cold ingest of
 *    one more fresh project with `memory_query` on the first project asked
 *    all along, 50 ms apart.
 * 3. SciFact as Markdown: the same baselines (no code to parse) and one cold
 *    ingest in a fresh pks process.
 *
 * Results go to stdout and bench/results/ingest.json (ingest-quick.json for
 * --quick, ingest-cpu-prof.json for --cpu-prof, whose profiles go to
 * bench/results/cpu-prof-<time>/).
 */
import { execFileSync, fork, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { codeLanguageForPath } from "../src/code/languages.js";
import { scanFolder } from "../src/ingest/folder/folder-scan.js";
import type { ScannedFile } from "../src/ingest/folder/folder-scan.js";
import { compileHost } from "./lib/compile-host.js";
import { summarizeProfiles } from "./lib/cpu-profile.js";
import type { ProfileSummary } from "./lib/cpu-profile.js";
import { docCommentLines } from "./lib/edit-lines.js";
import type { DocsPlan, DocsResult, HostMessage, HostPlan, HostResult, IngestRun, TreePlan, TreeResult } from "./lib/ingest-plan.js";
import { percentile } from "./lib/ir-metrics.js";
import { longMarkdown, markdownParagraphs, readAbstracts, writeAbstracts } from "./lib/markdown-corpus.js";
import { parseOnly } from "./lib/parse-only.js";
import type { ParseOnlyResult } from "./lib/parse-only.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const MB = 1_000_000;
const LONG_DOC_LINES = 2000;
const QUICK_FILES = 100;

/** The issue's targets. */
const TARGETS = {
  treeOverCtags: 7,
  treeOverParse: 2,
  scifactSeconds: 45,
  scifactDocs: 5183,
  editP50Ms: 30,
  editP95Ms: 100,
  queryDuringOverIdleP95: 3,
  serveRssMb: 250,
  rssDrift: 0.1,
} as const;

/** Questions a developer asks of a Vue-like tree; asked in turn, idle and during an ingest. */
const QUERIES = [
  "how does the reactivity system track dependencies in an effect",
  "compile a template into a render function",
  "hydration mismatch warning during SSR",
  "defineProps macro in script setup",
  "KeepAlive component cache and include exclude",
  "Teleport target element not found",
  "scheduler queue flush of pre and post jobs",
  "custom renderer createRenderer options",
  "render a component to a string on the server",
  "watch with the deep option and a getter",
  "v-model on a custom component",
  "Transition enter and leave hooks",
];

interface Options {
  tree: string | undefined;
  scifact: string | undefined;
  quick: boolean;
  repeat: number;
  edits: number;
  watchEdits: number;
  editFile: string | undefined;
  idleRounds: number;
  runs: number;
  cpuProf: boolean;
  pks: "dist" | "sources";
  build: boolean;
}

function pksFrom(v: string | undefined): "dist" | "sources" {
  if (v === undefined || v === "dist" || v === "sources") return v ?? "dist";
  throw new Error(`--pks must be dist or sources, got ${v}`);
}

function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    if (at < 0) return undefined;
    const v = argv[at + 1];
    if (v === undefined || v.startsWith("--")) throw new Error(`${name} needs a value`);
    return v;
  };
  const count = (name: string, fallback: number, min = 1): number => {
    const v = value(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got ${v}`);
    return n;
  };
  const known = new Set(["--tree", "--scifact", "--quick", "--repeat", "--edits", "--watch-edits", "--edit-file", "--idle-rounds", "--runs", "--cpu-prof", "--pks", "--no-build"]);
  const unknown = argv.filter((a) => a.startsWith("--") && !known.has(a));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(", ")} (see the header of bench/ingest.ts)`);
  const quick = argv.includes("--quick");
  return {
    tree: value("--tree") ?? process.env.PKS_BENCH_TREE,
    scifact: value("--scifact") ?? process.env.PKS_BENCH_SCIFACT,
    quick,
    repeat: count("--repeat", 1),
    edits: count("--edits", quick ? 5 : 20),
    watchEdits: count("--watch-edits", quick ? 2 : 5, 0),
    editFile: value("--edit-file"),
    idleRounds: count("--idle-rounds", quick ? 1 : 3),
    runs: count("--runs", quick ? 1 : 3),
    cpuProf: argv.includes("--cpu-prof"),
    pks: pksFrom(value("--pks")),
    build: !argv.includes("--no-build"),
  };
}

// ---------------------------------------------------------------- figures

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a");
const sec = (ms: number) => `${fmt(ms / 1000, 2)} s`;
const mb = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${fmt(bytes / MB, 0)} MB`);
const median = (xs: readonly number[]) => percentile(xs, 50);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ")).join("\n");
}

/** One target line: the figure, the bound, and whether it holds (by how much it falls short when not). */
interface Verdict {
  target: string;
  measured: string;
  holds: boolean | undefined;
  note: string;
}

function verdict(target: string, value: number, bound: number, unit: string, digits = 1): Verdict {
  if (!Number.isFinite(value)) return { target, measured: "n/a", holds: undefined, note: "not measured" };
  const holds = value <= bound;
  return { target, measured: `${fmt(value, digits)}${unit}`, holds, note: holds ? `holds (${fmt(value / bound, 2)} of the bound)` : `falls short: ${fmt(value / bound, 2)}× the bound` };
}

// ---------------------------------------------------------------- corpora

interface Corpus {
  name: string;
  root: string;
  files: ScannedFile[];
  bytes: number;
  code: ScannedFile[];
}

async function scan(name: string, root: string): Promise<Corpus> {
  const { files } = await scanFolder(root);
  const code = files.filter((f) => codeLanguageForPath(f.path) !== undefined);
  return { name, root, files, bytes: files.reduce((s, f) => s + f.size, 0), code };
}

/** Copies the tree (less `.git` and `node_modules`) to `dest`; with `limit`, only the first files pks's scan lists. */
async function copyTree(src: string, dest: string, limit: number | undefined): Promise<void> {
  if (limit === undefined) {
    cpSync(src, dest, { recursive: true, filter: (p) => !/(^|[/\\])(\.git|node_modules)$/.test(relative(src, p)) });
    return;
  }
  const { files } = await scanFolder(src);
  for (const f of files.slice(0, limit)) {
    const target = join(dest, f.path);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(f.absPath, target);
  }
}

/** The code file to edit: the given one, or a TypeScript file with doc comments whose size is nearest 20 kB. */
function pickEditFile(corpus: Corpus, given: string | undefined): string | undefined {
  if (given) {
    if (!corpus.files.some((f) => f.path === given)) throw new Error(`--edit-file ${given} is not a file pks reads in the tree`);
    return given;
  }
  return corpus.code
    .filter((f) => /\.tsx?$/.test(f.path) && !/(^|\/)(__tests__|test|tests)\//.test(f.path) && !f.path.endsWith(".d.ts"))
    .filter((f) => docCommentLines(readFileSync(f.absPath, "utf8")).length > 0)
    .sort((a, b) => Math.abs(a.size - 20_000) - Math.abs(b.size - 20_000) || a.path.localeCompare(b.path))[0]?.path;
}

// ---------------------------------------------------------------- baselines

interface Baselines {
  sha256Ms: number;
  ctags: { ms: number; tags: number; version: string } | undefined;
  parse: ParseOnlyResult | undefined;
}

function sha256All(files: readonly ScannedFile[]): number {
  const start = performance.now();
  for (const f of files) createHash("sha256").update(readFileSync(f.absPath)).digest();
  return performance.now() - start;
}

function ctagsVersion(): string | undefined {
  const r = spawnSync("ctags", ["--version"], { encoding: "utf8" });
  return r.status === 0 && /Universal Ctags/.test(r.stdout) ? r.stdout.split("\n")[0]!.trim() : undefined;
}

/** `ctags -R` over the folder into a temporary tags file; answers the time and the tag count. */
function runCtags(root: string, scratch: string): { ms: number; tags: number } {
  const out = join(scratch, "tags");
  const start = performance.now();
  execFileSync("ctags", ["-R", "-f", out, "."], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - start;
  const tags = readFileSync(out, "utf8").split("\n").filter((l) => l && !l.startsWith("!_TAG_")).length;
  rmSync(out, { force: true });
  return { ms, tags };
}

async function baselines(corpus: Corpus, runs: number, scratch: string, parse: boolean): Promise<Baselines> {
  sha256All(corpus.files); // page cache warm for every side
  const sha: number[] = [];
  for (let i = 0; i < runs; i++) sha.push(sha256All(corpus.files));
  const version = ctagsVersion();
  let ctags: Baselines["ctags"];
  if (version) {
    const r = Array.from({ length: runs }, () => runCtags(corpus.root, scratch));
    ctags = { ms: median(r.map((x) => x.ms)), tags: r[0]!.tags, version };
  }
  let parsed: ParseOnlyResult | undefined;
  if (parse && corpus.code.length > 0) {
    const r: ParseOnlyResult[] = [];
    for (let i = 0; i < runs; i++) r.push(await parseOnly(corpus.code.map((f) => f.absPath)));
    parsed = [...r].sort((a, b) => a.ms - b.ms)[Math.floor((r.length - 1) / 2)];
  }
  return { sha256Ms: median(sha), ctags, parse: parsed };
}

// ---------------------------------------------------------------- pks host

/** The host's entry and the Node flags it needs: the compiled host over dist/, or the sources under tsx. */
interface HostEntry {
  entry: string;
  execArgv: string[];
}

function hostEntry(opts: Options, scratch: string): HostEntry {
  if (opts.pks === "sources") return { entry: fileURLToPath(new URL("./lib/ingest-host.ts", import.meta.url)), execArgv: ["--import", "tsx"] };
  if (opts.build) {
    const r = spawnSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", join(REPO, "tsconfig.build.json")], { cwd: REPO, stdio: "inherit" });
    // tsc emits despite type errors; a half-edited tree elsewhere should not stop a measurement of what was emitted.
    if (r.status !== 0) console.log("warning: the build reported type errors (above); measuring the JavaScript it emitted");
  }
  const distSrc = join(REPO, "dist", "src");
  if (!existsSync(join(distSrc, "app.js"))) throw new Error("dist/src/app.js is missing: run npm run build, or use --pks sources");
  return { entry: compileHost(join(scratch, "host"), distSrc), execArgv: [] };
}

/** Runs a plan in a fresh pks process and answers its result; with `profileDir`, under --cpu-prof. */
function runHost(host: HostEntry, plan: HostPlan, profileDir?: string): Promise<HostResult> {
  const { entry } = host;
  const execArgv = [...host.execArgv, ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])];
  return new Promise((done, fail) => {
    const planFile = join(plan.dbDir, "plan.json");
    writeFileSync(planFile, JSON.stringify(plan));
    const child = fork(entry, [planFile], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"], env: { ...process.env, PKS_LOG: "silent" } });
    let answer: HostMessage | undefined;
    child.on("message", (m) => (answer = m as HostMessage));
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      if (answer?.ok) done(answer.result);
      else fail(new Error(answer && !answer.ok ? answer.error : `the pks process exited (${signal ?? code}) without an answer`));
    });
  });
}

// ---------------------------------------------------------------- report

function corpusLine(c: Corpus): string {
  return `${c.files.length} files, ${fmt(c.bytes / MB, 2)} MB (${c.code.length} code files, ${fmt(c.code.reduce((s, f) => s + f.size, 0) / MB, 2)} MB)`;
}

function printBaselines(c: Corpus, b: Baselines): void {
  const rows = [["baseline", "time", "MB/s", "notes"], ["read + sha256", sec(b.sha256Ms), fmt(c.bytes / MB / (b.sha256Ms / 1000), 1), `${c.files.length} files, one thread`]];
  if (b.ctags) rows.push(["ctags -R", sec(b.ctags.ms), fmt(c.bytes / MB / (b.ctags.ms / 1000), 1), `${b.ctags.tags} tags, one process`]);
  else rows.push(["ctags -R", "n/a", "", "universal-ctags not installed (sudo apt-get install -y universal-ctags)"]);
  if (b.parse) {
    rows.push([
      `parse only (${b.parse.threads} threads)`,
      sec(b.parse.ms),
      fmt(b.parse.bytes / MB / (b.parse.ms / 1000), 1),
      `${b.parse.files} code files, ${fmt(b.parse.cpuMs / 1000, 2)} s CPU${b.parse.failed ? `, ${b.parse.failed} without a tree` : ""}`,
    ]);
  }
  console.log(table(rows));
}

function ingestRow(label: string, r: IngestRun, bytes: number): string[] {
  return [label, sec(r.ms), fmt(bytes / MB / (r.ms / 1000), 2), `${fmt(r.cpuMs / 1000, 1)} s`, mb(r.peakRssBytes), mb(r.rssAfterBytes), mb(r.rssSettledBytes), `${r.files} files (${r.failed} failed), ${r.cells} cells`];
}

function printIngests(runs: readonly IngestRun[], bytes: number): void {
  console.log(table([["cold ingest", "time", "MB/s", "CPU", "peak RSS", "RSS after", "RSS 3 s later", ""], ...runs.map((r) => ingestRow(`#${r.index} ${r.via}`, r, bytes))]));
}

function seriesLine(s: { path: string; lines: number; via: string; ms: number[] }): string[] {
  return [`${s.path} (${s.lines} lines), ${s.via}`, String(s.ms.length), `${fmt(percentile(s.ms, 50), 1)} ms`, `${fmt(percentile(s.ms, 95), 1)} ms`, `${fmt(Math.max(...s.ms), 1)} ms`];
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const givenTree = opts.tree ?? (opts.quick ? join(REPO, "node_modules", "zod") : undefined);
  if (!givenTree) throw new Error("--tree DIR (or PKS_BENCH_TREE) is required: a checkout of the code tree to ingest, e.g. vuejs/core");
  if (!existsSync(givenTree)) throw new Error(`--tree ${givenTree} does not exist`);
  if (opts.scifact && !existsSync(opts.scifact)) throw new Error(`--scifact ${opts.scifact} does not exist`);
  const scratch = mkdtempSync(join(tmpdir(), "pks-bench-ingest-"));
  const limit = opts.quick ? QUICK_FILES : undefined;
  try {
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${fmt(totalmem() / 2 ** 30, 0)} GiB, node ${process.version}, load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    console.log(`mode: ${opts.cpuProf ? "CPU profile of the cold ingests" : opts.quick ? "quick" : "full"}; baselines median of ${opts.runs}; pks ${opts.pks === "dist" ? "from dist/ (compiled)" : "from sources (tsx)"}, database a temp file (WAL, synchronous=FULL)`);

    const host = hostEntry(opts, scratch);
    // ---- the code tree
    const treeDir = join(scratch, "tree");
    await copyTree(resolve(givenTree), treeDir, limit);
    const tree = await scan(`tree ${basename(resolve(givenTree))}`, treeDir);
    console.log(`\n== ${tree.name}: ${corpusLine(tree)}`);
    const treeBase = await baselines(tree, opts.runs, scratch, true);
    printBaselines(tree, treeBase);

    const abstracts = opts.scifact ? readAbstracts(opts.scifact, limit) : undefined;
    const paragraphs = abstracts ?? tree.files.filter((f) => f.path.endsWith(".md")).flatMap((f) => markdownParagraphs(readFileSync(f.absPath, "utf8")));
    const editFile = pickEditFile(tree, opts.editFile);
    const profileRoot = opts.cpuProf ? join(REPO, "bench", "results", `cpu-prof-${new Date().toISOString().replace(/[:.]/g, "-")}`) : undefined;
    const treePlan: TreePlan = {
      kind: "tree",
      root: treeDir,
      dbDir: mkdtempSync(join(scratch, "db-")),
      repeat: opts.repeat,
      queries: QUERIES,
      idleRounds: opts.idleRounds,
      probeGapMs: 50,
      edits: opts.edits,
      watchEdits: opts.watchEdits,
      editFile,
      longMarkdown: paragraphs.length > 0 ? longMarkdown(paragraphs, LONG_DOC_LINES) : undefined,
      coldOnly: opts.cpuProf,
    };
    const treeProfile = profileRoot ? join(profileRoot, "tree") : undefined;
    const treeRun = (await runHost(host, treePlan, treeProfile)) as TreeResult;
    console.log(`\npks, ${tree.name} (RSS with the app open, nothing read: ${mb(treeRun.rssOpenBytes)})`);
    printIngests(treeRun.ingests, tree.bytes);
    const first = treeRun.ingests[0]!;
    const ratios = {
      overCtags: treeBase.ctags ? first.ms / treeBase.ctags.ms : Number.NaN,
      overParse: treeBase.parse ? first.ms / treeBase.parse.ms : Number.NaN,
      overSha256: first.ms / treeBase.sha256Ms,
    };
    console.log(`cold ingest #1 ÷ ctags ${fmt(ratios.overCtags, 1)}×, ÷ parse-only ${fmt(ratios.overParse, 1)}×, ÷ read+sha256 ${fmt(ratios.overSha256, 0)}×`);

    let query: { idle: { p50: number; p95: number; n: number }; during: { p50: number; p95: number; n: number }; ratioP95: number } | undefined;
    if (treeRun.probed) {
      const q = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), n: xs.length });
      query = { idle: q(treeRun.idleQueryMs), during: q(treeRun.probed.queryMs), ratioP95: percentile(treeRun.probed.queryMs, 95) / percentile(treeRun.idleQueryMs, 95) };
      console.log(`\nmemory_query (budget 4096) on the ingested project, 50 ms apart`);
      console.log(
        table([
          ["", "queries", "p50", "p95"],
          ["idle", String(query.idle.n), `${fmt(query.idle.p50, 1)} ms`, `${fmt(query.idle.p95, 1)} ms`],
          [`during cold ingest #${treeRun.probed.ingest.index}`, String(query.during.n), `${fmt(query.during.p50, 1)} ms`, `${fmt(query.during.p95, 1)} ms`],
        ]),
      );
      console.log(`p95 during ÷ idle: ${fmt(query.ratioP95, 2)}×; that ingest took ${sec(treeRun.probed.ingest.ms)} (#1: ${sec(first.ms)})`);
      if (treeRun.rssAfterQueriesBytes !== undefined) console.log(`RSS once the idle queries were answered: ${mb(treeRun.rssAfterQueriesBytes)}`);
    }
    if (treeRun.edits.length > 0) {
      console.log(`\nsave-to-queryable, one-line edits (clock: the call or the save → the marker word found in cells_fts)`);
      console.log(table([["file, path of the edit", "edits", "p50", "p95", "max"], ...treeRun.edits.map(seriesLine)]));
    }

    // ---- SciFact as Markdown
    let docs: { corpus: Corpus; base: Baselines; run: DocsResult } | undefined;
    if (abstracts) {
      const docsDir = join(scratch, "scifact");
      writeAbstracts(docsDir, abstracts);
      const corpus = await scan(`SciFact as Markdown (${abstracts.length} abstracts)`, docsDir);
      console.log(`\n== ${corpus.name}: ${corpusLine(corpus)}`);
      const base = await baselines(corpus, opts.runs, scratch, false);
      printBaselines(corpus, base);
      const plan: DocsPlan = { kind: "docs", root: docsDir, dbDir: mkdtempSync(join(scratch, "db-")) };
      const run = (await runHost(host, plan, profileRoot ? join(profileRoot, "scifact") : undefined)) as DocsResult;
      console.log(`\npks, ${corpus.name}`);
      printIngests([run.ingest], corpus.bytes);
      console.log(`cold ingest ÷ ctags ${base.ctags ? fmt(run.ingest.ms / base.ctags.ms, 0) : "n/a"}×, ÷ read+sha256 ${fmt(run.ingest.ms / base.sha256Ms, 0)}×`);
      docs = { corpus, base, run };
    } else {
      console.log(`\n== SciFact: skipped (no --scifact FILE or PKS_BENCH_SCIFACT)`);
    }

    // ---- targets
    const verdicts: Verdict[] = [];
    verdicts.push(verdict("tree cold ingest ÷ ctags ≤ 7×", ratios.overCtags, TARGETS.treeOverCtags, "×"));
    verdicts.push(verdict("tree cold ingest ÷ parse-only ≤ 2×", ratios.overParse, TARGETS.treeOverParse, "×"));
    if (docs) {
      const v = verdict(`SciFact cold ingest ≤ 45 s (${TARGETS.scifactDocs} docs)`, docs.run.ingest.ms / 1000, TARGETS.scifactSeconds, " s");
      if (docs.run.ingest.files !== TARGETS.scifactDocs) v.note += ` — ${docs.run.ingest.files} docs ingested, not ${TARGETS.scifactDocs}`;
      verdicts.push(v);
    }
    for (const s of treeRun.edits.filter((e) => e.via === "content replacement")) {
      verdicts.push(verdict(`${s.kind} edit → queryable p50 ≤ 30 ms`, percentile(s.ms, 50), TARGETS.editP50Ms, " ms"));
      verdicts.push(verdict(`${s.kind} edit → queryable p95 ≤ 100 ms`, percentile(s.ms, 95), TARGETS.editP95Ms, " ms"));
    }
    if (query) verdicts.push(verdict("memory_query p95 during ingest ≤ 3× idle", query.ratioP95, TARGETS.queryDuringOverIdleP95, "×", 2));
    verdicts.push(verdict("peak RSS, cold ingest #1 of the tree ≤ 250 MB", (first.peakRssBytes ?? first.sampledPeakRssBytes) / MB, TARGETS.serveRssMb, " MB", 0));
    verdicts.push(verdict("RSS serving the tree (3 s after ingest #1) ≤ 250 MB", first.rssSettledBytes / MB, TARGETS.serveRssMb, " MB", 0));
    verdicts.push(verdict("RSS right as ingest #1 ends ≤ 250 MB", first.rssAfterBytes / MB, TARGETS.serveRssMb, " MB", 0));
    if (treeRun.rssAfterQueriesBytes !== undefined) {
      verdicts.push(verdict("RSS serving the tree, queries answered ≤ 250 MB", treeRun.rssAfterQueriesBytes / MB, TARGETS.serveRssMb, " MB", 0));
    }
    const last = treeRun.ingests.at(-1)!;
    if (treeRun.ingests.length > 1) {
      const drift = (a: number, b: number) => Math.abs(b - a) / a;
      verdicts.push(verdict(`RSS serving after ingest #${last.index} vs #1 within ±10%`, drift(first.rssSettledBytes, last.rssSettledBytes) * 100, TARGETS.rssDrift * 100, " %"));
      verdicts.push(verdict(`RSS right as ingest #${last.index} ends vs #1 within ±10%`, drift(first.rssAfterBytes, last.rssAfterBytes) * 100, TARGETS.rssDrift * 100, " %"));
      verdicts.push(verdict(`peak RSS of ingest #${last.index} vs #1 within ±10%`, drift(first.peakRssBytes ?? first.sampledPeakRssBytes, last.peakRssBytes ?? last.sampledPeakRssBytes) * 100, TARGETS.rssDrift * 100, " %"));
    }
    console.log(`\ntargets`);
    console.log(table([["target", "measured", "verdict"], ...verdicts.map((v) => [v.target, v.measured, v.note])]));

    let profile: Record<string, ProfileSummary> | undefined;
    if (profileRoot) {
      profile = {};
      for (const [name, dir] of [["tree", join(profileRoot, "tree")], ["scifact", join(profileRoot, "scifact")]] as const) {
        if (!existsSync(dir)) continue;
        const s = summarizeProfiles(dir, REPO);
        profile[name] = s;
        console.log(`\nCPU profile, ${name} (${s.files} threads' profiles in ${relative(REPO, dir)}; busy ${fmt((s.totalMs - s.idleMs) / 1000, 1)} s, GC ${fmt(s.gcMs / 1000, 1)} s)`);
        console.log(table([["area", "self", "share"], ...s.areas.map((l) => [l.name, `${fmt(l.selfMs / 1000, 2)} s`, `${fmt(l.share * 100, 1)}%`])]));
        console.log(table([["function", "self", "share"], ...s.top.map((l) => [l.name, `${fmt(l.selfMs / 1000, 2)} s`, `${fmt(l.share * 100, 1)}%`])]));
      }
    }

    const out = join(REPO, "bench", "results");
    mkdirSync(out, { recursive: true });
    const result = {
      at: new Date().toISOString(),
      node: process.version,
      machine: { cores: cpus().length, loadAverageAtEnd: loadavg() },
      options: opts,
      tree: { name: tree.name, files: tree.files.length, bytes: tree.bytes, codeFiles: tree.code.length, baselines: treeBase, pks: treeRun, ratios, query, editFile },
      scifact: docs ? { files: docs.corpus.files.length, bytes: docs.corpus.bytes, baselines: docs.base, pks: docs.run } : undefined,
      verdicts,
      profile,
    };
    // A profiled run's times are inflated by the profiler: its figures go to their own file.
    const resultFile = join(out, opts.cpuProf ? "ingest-cpu-prof.json" : opts.quick ? "ingest-quick.json" : "ingest.json");
    writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\nload average at the end: ${loadavg().map((x) => x.toFixed(2)).join(" ")}; wrote ${relative(REPO, resultFile)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
