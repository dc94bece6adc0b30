/**
 * Scale: `pks serve` on trees of about 0.25 M, 1 M and 4 M lines built from
 * fetched repositories, beside universal-ctags on the same tree in the same
 * run.
 *
 *   npm run bench -- scale --mirrors DIR [--sizes vue,0.25M,1M,4M] [options]
 *   node --import tsx bench/scale.ts --help
 *
 * Data (a flag, or the environment; nothing is looked for elsewhere):
 *   --mirrors DIR   (PKS_MIRRORS) a folder of bare git repositories
 *                   named `<owner>+<name>/repo` (or `<owner>+<name>` itself
 *                   a git directory): vuejs+core, honojs+hono,
 *                   modelcontextprotocol+typescript-sdk, colinhacks+zod,
 *                   pytest-dev+pytest, drizzle-team+drizzle-orm,
 *                   sveltejs+svelte, vitejs+vite, pydata+xarray,
 *                   sphinx-doc+sphinx, numpy+numpy, astropy+astropy,
 *                   sympy+sympy. Each is extracted once (`git archive HEAD`)
 *                   into the work folder; missing ones are passed over.
 *
 * Options:
 *   --sizes LIST    trees to run, in order (default vue,0.25M,1M,4M): `vue`
 *                   is vuejs/core alone; a size in lines (`0.25M`, `1M`,
 *                   `4M`, `600k`) takes the repositories above in that
 *                   order until the tree holds at least that many lines
 *                   (4M is all of them, about 4.1 M lines). A short run:
 *                   --sizes 0.25M,1M
 *   --work DIR      (PKS_BENCH_WORK) extracted repositories, trees and
 *                   databases (default: <tmp>/pks-scale); trees and
 *                   databases are removed after each run, extractions kept
 *   --after-s N     seconds the cheap read goes on after the ingest (60)
 *   --rounds N      rounds of the idle query lists (3)
 *   --runs N        ctags runs per tree, median kept (3)
 *   --keep-db       leave each tree's database in <work>/db/<size> (to
 *                   measure it further, or to upgrade with a newer build)
 *   --no-build      run dist/ as it is (default: `npm run build` first)
 *   --pks DIR       the pks checkout whose dist/ is served (default: this
 *                   one), e.g. an older commit's worktree with its own build,
 *                   for a before/after in one run
 *   --env NAME=VALUE  a variable for the served process (repeatable), e.g.
 *                   an allocator setting tried against the same build
 *   --node-arg ARG  an option for the served process's node (repeatable),
 *                   e.g. `--node-arg --cpu-prof --node-arg --cpu-prof-dir=DIR`
 *                   to profile every thread (node refuses --cpu-prof in
 *                   NODE_OPTIONS)
 *
 * Per tree: lines and text bytes of the files pks's folder scan lists;
 * `ctags -R` time; `pks serve --root TREE` (the build, a fresh database
 * outside the tree, rate limit lifted) from spawn until it prints its sync
 * summary: the cold ingest, its cost per line, its ratio to ctags; the
 * server process's peak RSS (VmHWM, threads included) and the CPU time it
 * had used when its sync ended (all threads, user + system: on a busy host
 * it moves less than the wall time) and the I/O it had done (bytes through
 * read and write calls, and to and from the disk: these do not move with
 * the load at all); the database (file
 * and WAL) per text byte and where its bytes go (dbstat, largest tables and
 * indexes); a cheap read (`GET …/entities?limit=1`) every 50 ms from the
 * moment it listens, its p50/p95/max during the ingest and for --after-s
 * seconds after; then `memory_query`, `code_context_pack` and
 * `code_references` p50/p95 once idle, and the cheap read's p50/p95/max
 * while one client asks the memory questions and pack tasks once more. The host's load average is printed
 * with every tree: on a shared host, the ratios to ctags are what count.
 * Results go to stdout and bench/results/scale.json.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import Database from "libsql";
import { scanFolder } from "../src/ingest/folder/folder-scan.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
/** The repositories in the order trees take them. */
const ORDER = [
  "vuejs+core",
  "honojs+hono",
  "modelcontextprotocol+typescript-sdk",
  "colinhacks+zod",
  "pytest-dev+pytest",
  "drizzle-team+drizzle-orm",
  "sveltejs+svelte",
  "vitejs+vite",
  "pydata+xarray",
  "sphinx-doc+sphinx",
  "numpy+numpy",
  "astropy+astropy",
  "sympy+sympy",
];
const PROBE_MS = 50;
const MEMORY_QUERIES = [
  "how is the configuration loaded and validated",
  "what happens when parsing fails with an error",
  "how are tests organised and run",
  "which options change the output format",
  "how does the cache get invalidated",
  "where are the public types exported",
];
const PACK_TASKS = [
  "fix the parser so an empty input gives a clear error",
  "add an option to skip validation of the schema",
  "the cache returns stale values after an update",
  "make the renderer handle nested components",
];
const REFERENCE_PREFIXES = ["get", "parse", "create", "render", "test_", "validate", "to", "is"];

interface Flags {
  mirrors: string;
  sizes: string[];
  work: string;
  afterS: number;
  rounds: number;
  runs: number;
  build: boolean;
  keepDb: boolean;
  pks: string;
  /** Variables given to the served process beside the bench's own (--env). */
  env: Record<string, string>;
  /** Options for the served process's node, before its script (--node-arg). */
  nodeArgs: string[];
}

const HELP = readFileSync(fileURLToPath(import.meta.url), "utf8").split("*/")[0]!.replace(/^\/\*\*\n?|^ \* ?/gm, "");

function parseFlags(argv: string[]): Flags {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const mirrors = value("--mirrors") ?? process.env.PKS_MIRRORS;
  if (!mirrors) {
    process.stderr.write("scale: give --mirrors DIR (or PKS_MIRRORS); --help says more\n");
    process.exit(2);
  }
  return {
    mirrors,
    sizes: (value("--sizes") ?? "vue,0.25M,1M,4M").split(",").map((s) => s.trim()).filter(Boolean),
    work: value("--work") ?? process.env.PKS_BENCH_WORK ?? join(tmpdir(), "pks-scale"),
    afterS: Number(value("--after-s") ?? 60),
    rounds: Number(value("--rounds") ?? 3),
    runs: Number(value("--runs") ?? 3),
    build: !argv.includes("--no-build"),
    keepDb: argv.includes("--keep-db"),
    pks: value("--pks") ?? REPO,
    env: Object.fromEntries(argv.flatMap((a, i) => (a === "--env" && argv[i + 1]?.includes("=") ? [argv[i + 1]!.split(/=(.*)/s).slice(0, 2)] : []))),
    nodeArgs: argv.flatMap((a, i) => (a === "--node-arg" && argv[i + 1] !== undefined ? [argv[i + 1]!] : [])),
  };
}

/** A size as lines: `0.25M`, `1M`, `600k`, or a plain number. */
function linesOf(size: string): number {
  const m = /^([\d.]+)\s*([kKmM]?)$/.exec(size);
  if (!m) throw new Error(`scale: not a size: ${size}`);
  return Number(m[1]) * (m[2]!.toLowerCase() === "m" ? 1e6 : m[2]!.toLowerCase() === "k" ? 1e3 : 1);
}

/** Extracts a repository once into the work folder; undefined when its mirror is missing. */
function extracted(flags: Flags, name: string): string | undefined {
  const dir = join(flags.work, "src", name);
  if (existsSync(join(dir, ".extracted"))) return dir;
  const gitDir = [join(flags.mirrors, name, "repo"), join(flags.mirrors, name)].find((d) => existsSync(join(d, "HEAD")));
  if (!gitDir) return undefined;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("bash", ["-c", `git --git-dir="${gitDir}" archive HEAD | tar -x -C "${dir}"`], { stdio: ["ignore", "ignore", "ignore"] });
  writeFileSync(join(dir, ".extracted"), "");
  return dir;
}

interface Measured {
  files: number;
  lines: number;
  textBytes: number;
}

/** Files, lines and bytes of what pks's folder scan lists under `root`. */
async function measure(root: string): Promise<Measured> {
  const scan = await scanFolder(root);
  let lines = 0;
  let textBytes = 0;
  for (const f of scan.files) {
    const bytes = readFileSync(f.absPath);
    textBytes += bytes.length;
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  }
  return { files: scan.files.length, lines, textBytes };
}

/** The repositories of a tree: vuejs/core alone for `vue`, else in ORDER until the lines reach the size. */
async function planTree(flags: Flags, size: string, lineCache: Map<string, number>): Promise<string[]> {
  const available = ORDER.filter((name) => extracted(flags, name));
  if (size === "vue") return available.includes("vuejs+core") ? ["vuejs+core"] : [];
  const want = linesOf(size);
  const picked: string[] = [];
  let lines = 0;
  for (const name of available) {
    if (lines >= want) break;
    if (!lineCache.has(name)) lineCache.set(name, (await measure(join(flags.work, "src", name))).lines);
    picked.push(name);
    lines += lineCache.get(name)!;
  }
  return picked;
}

/** Builds the tree as hard links to the extractions (one folder per repository). */
function buildTree(flags: Flags, size: string, repos: string[]): string {
  const tree = join(flags.work, "trees", size);
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  for (const name of repos) execFileSync("cp", ["-al", join(flags.work, "src", name), join(tree, name)]);
  return tree;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** `ctags -R` over the tree, median of `runs`. */
function timeCtags(tree: string, runs: number): number {
  const out = join(tree, "..", "tags.out");
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const r = spawnSync("ctags", ["-R", "-f", out, "."], { cwd: tree, stdio: ["ignore", "ignore", "ignore"] });
    if (r.error) throw new Error("scale: universal-ctags is not installed (apt-get install universal-ctags)");
    times.push(performance.now() - start);
  }
  rmSync(out, { force: true });
  return median(times);
}

interface Served {
  child: ChildProcessWithoutNullStreams;
  rest: string;
  projectId: string;
  key: string;
  /** Resolves with pks's own sync summary line. */
  synced: Promise<string>;
  spawnedAt: number;
}

/** Starts `pks serve` from the build on the tree, a fresh database beside it. */
async function serve(pks: string, tree: string, dbPath: string, env: Record<string, string>, nodeArgs: string[]): Promise<Served> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, join(pks, "dist/src/main.js"), "serve", "--root", tree, "--db", `file:${dbPath}`, "--port", "0"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PKS_LOG: "silent", PKS_RATE_LIMIT: "100000000", ...env },
  });
  let out = "";
  let onSynced: (line: string) => void = () => undefined;
  const synced = new Promise<string>((resolve) => (onSynced = resolve));
  child.stderr.on("data", (d: Buffer) => process.stderr.write(d));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const line = /^\s+synced\s+.*$/m.exec(out);
    if (line) onSynced(line[0].trim());
  });
  while (!/\n\s+key\s+\S/.test(out)) {
    if (child.exitCode !== null) throw new Error(`pks serve exited with ${child.exitCode}`);
    await sleep(20);
  }
  return { child, rest: /REST\s+(\S+)/.exec(out)![1]!, projectId: /project\s+(prj_\S+)/.exec(out)![1]!, key: /key\s+(pks_\S+)/.exec(out)![1]!, synced, spawnedAt };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** User + system CPU time a process has used (all its threads), in ms, from /proc. */
function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/**
 * The I/O a process has done (all its threads), from /proc: bytes passed to
 * read and write calls (`rchar`, `wchar`: the database's page reads and the
 * WAL and checkpoint writes, whether the page cache served them or not) and
 * bytes that reached the disk. Unlike times, these do not depend on the
 * host's load, so two builds compare on a busy host.
 */
function procIo(pid: number): ProcIo {
  try {
    const text = readFileSync(`/proc/${pid}/io`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
    return { rchar: field("rchar"), wchar: field("wchar"), readBytes: field("read_bytes"), writeBytes: field("write_bytes") };
  } catch {
    return { rchar: NaN, wchar: NaN, readBytes: NaN, writeBytes: NaN };
  }
}

interface ProcIo {
  rchar: number;
  wchar: number;
  readBytes: number;
  writeBytes: number;
}

/** VmHWM or VmRSS of a process, in bytes. */
function procMemory(pid: number, field: "VmHWM" | "VmRSS"): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Times one GET of the cheap read. */
async function cheapRead(s: Served): Promise<number> {
  const start = performance.now();
  const r = await fetch(`${s.rest}/projects/${s.projectId}/entities?limit=1`, { headers: { authorization: `Bearer ${s.key}` } });
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`cheap read answered ${r.status}`);
  return performance.now() - start;
}

/** The cheap read every PROBE_MS until `until` resolves; answers its latencies. */
async function probe(s: Served, until: Promise<unknown>, slow?: SlowRead[]): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const startedS = (performance.now() - s.spawnedAt) / 1000;
    const ms = await cheapRead(s);
    times.push(ms);
    if (ms > SLOW_READ_MS) slow?.push({ atS: startedS, ms });
    await sleep(Math.max(0, PROBE_MS - ms));
  }
  return times;
}

/** A cheap read past the bound a read may take (250 ms), and when it started: to line it up with the server's log. */
interface SlowRead {
  atS: number;
  ms: number;
}
const SLOW_READ_MS = 250;

/** Calls one action over REST; answers its time. */
async function action(s: Served, name: string, input: unknown): Promise<number> {
  const start = performance.now();
  const r = await fetch(`${s.rest}/api/actions`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.key}`, "content-type": "application/json", "x-project-id": s.projectId },
    body: JSON.stringify({ action: name, input }),
  });
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`${name} answered ${r.status}`);
  return performance.now() - start;
}

interface Spread {
  p50: number;
  p95: number;
  max?: number;
  n: number;
}
const spread = (xs: number[], withMax = false): Spread => ({ p50: pct(xs, 50), p95: pct(xs, 95), ...(withMax ? { max: Math.max(...xs) } : {}), n: xs.length });

/** The idle query lists, `rounds` times each. */
async function idleQueries(s: Served, rounds: number): Promise<Record<string, Spread>> {
  const memory: number[] = [];
  const pack: number[] = [];
  const refs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of MEMORY_QUERIES) memory.push(await action(s, "memory_query", { query: q }));
    for (const t of PACK_TASKS) pack.push(await action(s, "code_context_pack", { task: t }));
    for (const p of REFERENCE_PREFIXES) refs.push(await action(s, "code_references", { query: p }));
  }
  return { memory_query: spread(memory), code_context_pack: spread(pack), code_references: spread(refs) };
}

/**
 * The cheap read every PROBE_MS while one client asks the memory questions
 * and the pack tasks one after another: what a read waits for while the
 * long answers of another client are worked out.
 */
async function cheapWhileAnswering(s: Served): Promise<number[]> {
  const answering = (async () => {
    for (const q of MEMORY_QUERIES) await action(s, "memory_query", { query: q });
    for (const t of PACK_TASKS) await action(s, "code_context_pack", { task: t });
  })();
  const times = await probe(s, answering);
  await answering;
  return times;
}

/** The database's free pages, in bytes (space a VACUUM would give back). */
function freeBytes(dbPath: string): number {
  const db = new Database(dbPath);
  try {
    const free = db.prepare("PRAGMA freelist_count").get() as { freelist_count: number };
    const page = db.prepare("PRAGMA page_size").get() as { page_size: number };
    return Number(free.freelist_count) * Number(page.page_size);
  } finally {
    db.close();
  }
}

/** Where the database's bytes go: the largest tables and indexes (dbstat). */
function bytesByObject(dbPath: string): Array<{ name: string; mb: number }> {
  const db = new Database(dbPath);
  try {
    const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 14").all() as Array<{ name: string; bytes: number }>;
    return rows.map((r) => ({ name: r.name, mb: Math.round((Number(r.bytes) / 1048576) * 10) / 10 }));
  } finally {
    db.close();
  }
}

const fileBytes = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

interface TreeResult {
  size: string;
  repos: string[];
  measured: Measured;
  load: number[];
  ctagsMs: number;
  ingestMs: number;
  /** CPU time of the served process (all threads) when its sync ended. */
  ingestCpuMs: number;
  /** I/O of the served process when its sync ended. */
  ingestIo: ProcIo;
  summary: string;
  peakRssMb: number;
  dbBytes: number;
  /** Of dbBytes: the WAL left beside the database, and the database's free pages. */
  walBytes: number;
  freeBytes: number;
  cheapDuring: Spread;
  cheapAfter: Spread;
  /** The cheap read while another client's memory questions and pack tasks run, once idle. */
  cheapAnswering: Spread;
  slowReads: SlowRead[];
  idle: Record<string, Spread>;
  bytesByObject: Array<{ name: string; mb: number }>;
}

/** One tree: baselines, the served cold ingest with its probe, the probe after, the idle queries. */
async function runTree(flags: Flags, size: string, repos: string[]): Promise<TreeResult> {
  const tree = buildTree(flags, size, repos);
  const measured = await measure(tree);
  const ctagsMs = timeCtags(tree, flags.runs);
  const dbDir = join(flags.work, "db", size);
  rmSync(dbDir, { recursive: true, force: true });
  mkdirSync(dbDir, { recursive: true });
  const dbPath = join(dbDir, "pks.db");
  const s = await serve(flags.pks, tree, dbPath, flags.env, flags.nodeArgs);
  try {
    const slowReads: SlowRead[] = [];
    const during = await probe(s, s.synced, slowReads);
    const ingestMs = performance.now() - s.spawnedAt;
    const ingestCpuMs = procCpuMs(s.child.pid!);
    const ingestIo = procIo(s.child.pid!);
    const summary = await s.synced;
    const after = await probe(s, sleep(flags.afterS * 1000), slowReads);
    const idle = await idleQueries(s, flags.rounds);
    const answering = await cheapWhileAnswering(s);
    const peakRssMb = procMemory(s.child.pid!, "VmHWM") / 1048576;
    const walBytes = fileBytes(`${dbPath}-wal`);
    const dbBytes = fileBytes(dbPath) + walBytes;
    await stop(s);
    const result = { size, repos, measured, load: loadavg(), ctagsMs, ingestMs, ingestCpuMs, ingestIo, summary, peakRssMb, dbBytes, walBytes, freeBytes: freeBytes(dbPath), cheapDuring: spread(during, true), cheapAfter: spread(after, true), cheapAnswering: spread(answering, true), slowReads, idle, bytesByObject: bytesByObject(dbPath) };
    return result;
  } finally {
    if (s.child.exitCode === null) s.child.kill("SIGKILL");
    rmSync(tree, { recursive: true, force: true });
    if (!flags.keepDb) rmSync(dbDir, { recursive: true, force: true });
  }
}

async function stop(s: Served): Promise<void> {
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill("SIGTERM");
  await Promise.race([exited, sleep(30_000)]);
}

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "–");
const mb = (x: number) => f1(x / 1048576);
const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "–");

function report(r: TreeResult, base: TreeResult | undefined): string {
  const perLineUs = (r.ingestMs * 1000) / r.measured.lines;
  const basePerLine = base ? (base.ingestMs * 1000) / base.measured.lines : undefined;
  const q = (x: Spread) => `p50 ${f1(x.p50)} / p95 ${f1(x.p95)}${x.max !== undefined ? ` / max ${f1(x.max)}` : ""} ms (n ${x.n})`;
  return [
    `\n## ${r.size}: ${r.repos.join(", ")}`,
    `  load average ${r.load.map((l) => l.toFixed(2)).join(" ")} (${cpus().length} cores)`,
    `  files ${r.measured.files}, lines ${r.measured.lines.toLocaleString("en")}, text ${(r.measured.textBytes / 1048576).toFixed(1)} MB`,
    `  ctags -R ${f0(r.ctagsMs)} ms; pks cold ingest ${f1(r.ingestMs / 1000)} s = ${f1(r.ingestMs / r.ctagsMs)}× ctags (${r.summary})`,
    `  CPU of the served process until its sync ended ${f1(r.ingestCpuMs / 1000)} s (user + system, all threads)`,
    `  I/O of the served process until its sync ended: read calls ${mb(r.ingestIo.rchar)} MB, write calls ${mb(r.ingestIo.wchar)} MB; disk read ${mb(r.ingestIo.readBytes)} MB, written ${mb(r.ingestIo.writeBytes)} MB`,
    `  cost per line ${perLineUs.toFixed(1)} µs${basePerLine ? ` = ${(perLineUs / basePerLine).toFixed(2)}× the ${base!.size} tree's` : ""}`,
    `  peak RSS ${f0(r.peakRssMb)} MB; database ${(r.dbBytes / 1048576).toFixed(1)} MB = ${(r.dbBytes / r.measured.textBytes).toFixed(2)}× text (of it WAL ${(r.walBytes / 1048576).toFixed(1)} MB, free pages ${(r.freeBytes / 1048576).toFixed(1)} MB)`,
    `  cheap read during ingest ${q(r.cheapDuring)}; ${"after"} ${q(r.cheapAfter)}`,
    `  cheap reads over ${SLOW_READ_MS} ms: ${r.slowReads.length === 0 ? "none" : r.slowReads.map((x) => `${f0(x.ms)} ms at ${f1(x.atS)} s`).join(", ")}`,
    ...Object.entries(r.idle).map(([name, x]) => `  idle ${name} ${q(x)}`),
    `  cheap read while another client's answers run ${r.cheapAnswering ? q(r.cheapAnswering) : "–"}`,
    `  bytes: ${r.bytesByObject.map((o) => `${o.name} ${o.mb}`).join(", ")} (MB)`,
  ].join("\n");
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  mkdirSync(flags.work, { recursive: true });
  if (flags.build) execFileSync("npm", ["run", "build"], { cwd: flags.pks, stdio: ["ignore", "ignore", "inherit"] });
  process.stdout.write(`pks served from ${flags.pks} (${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: flags.pks, encoding: "utf8" }).trim()})\n`);
  const lineCache = new Map<string, number>();
  const results: TreeResult[] = [];
  for (const size of flags.sizes) {
    const repos = await planTree(flags, size, lineCache);
    if (repos.length === 0) {
      process.stdout.write(`\n## ${size}: no repositories found under ${flags.mirrors}\n`);
      continue;
    }
    const r = await runTree(flags, size, repos);
    results.push(r);
    const base = results.find((x) => x.size !== "vue" && x !== r && x.size !== r.size);
    process.stdout.write(`${report(r, r.size === "vue" ? undefined : base)}\n`);
  }
  const out = join(REPO, "bench/results/scale.json");
  mkdirSync(join(REPO, "bench/results"), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
  process.stdout.write(`\nresults: ${out}\n`);
}

await main();
