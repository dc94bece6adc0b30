/**
 * Ingestion throughput and save-to-queryable latency on a real corpus, each
 * against a floor measured in the same run.
 *
 *   node --import tsx bench/ingest.ts [--corpus DIR] [--runs N] [--batch N] [--edits N] [--picks N]
 *
 * Without `--corpus` the corpus is built in a temp folder: one Markdown file
 * per BEIR SciFact abstract (`# title`, blank line, text) plus the Markdown
 * and plain-text files found under node_modules (READMEs, CHANGELOGs,
 * LICENSEs). With `--corpus DIR` every file under DIR is ingested as is.
 *
 * 1. Floor: read every file and hash it with sha256.
 * 2. Cold ingest into a fresh database file (WAL, synchronous=FULL) through
 *    `createApp` + `ingestBatch` in batches, until the reading worker is idle.
 * 3. Save-to-queryable: one line of a file changes, the file is ingested
 *    again, and the clock stops when a cell with the new text is live in
 *    `cells`. Baselines: the same edited file ingested fresh under a new path
 *    (a full first reading), and the floor for that one file.
 *
 * Results go to stdout and to bench/results/ingest.json.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { ingestBatch } from "../src/ingest/accept/ingest-batch.js";
import type { IngestAnswer } from "../src/ingest/accept/ingest-batch.js";
import { createProject } from "../src/store/access/projects.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCIFACT = "/work/shared/data/scifact/corpus.jsonl";
const MAX_FILE_BYTES = 24 * 1024 * 1024;
const TEXT_NAME = /\.(md|markdown|mdx|txt|text)$|^(readme|license|licence|changelog|history|notice|authors)([.-].*)?$/i;
const LONG_DOC_LINES = 2000;

interface Options {
  corpus: string | undefined;
  runs: number;
  batch: number;
  edits: number;
  picks: number;
}

/** One file of the corpus on disk. */
interface CorpusFile {
  abs: string;
  rel: string;
  size: number;
}

interface FloorResult {
  ms: number;
  bytes: number;
}

interface ColdResult {
  ms: number;
  acceptMs: number;
  cpuMs: number;
  files: number;
  bytes: number;
  accepted: number;
  refused: number;
  status: Record<string, number>;
  factions: number;
  cells: number;
  dbBytes: number;
}

interface EditSample {
  path: string;
  bytes: number;
  lines: number;
  editMs: number;
  freshMs: number;
  floorMs: number;
}

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

function parseOptions(argv: string[]): Options {
  return {
    corpus: option(argv, "--corpus"),
    runs: positive(option(argv, "--runs"), 3),
    batch: positive(option(argv, "--batch"), 200),
    edits: positive(option(argv, "--edits"), 3),
    picks: positive(option(argv, "--picks"), 30),
  };
}

/** Every regular file under `dir` that `keep` accepts, sorted. */
function walk(dir: string, keep: (name: string) => boolean, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== ".git") walk(path, keep, into);
    else if (entry.isFile() && keep(entry.name)) into.push(path);
  }
  return into.sort();
}

interface Abstract {
  _id: string;
  title: string;
  text: string;
}

function readAbstracts(): Abstract[] {
  return readFileSync(SCIFACT, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Abstract);
}

/** Writes the default corpus into `dir`: SciFact abstracts as Markdown and node_modules' text files. */
function buildDefaultCorpus(dir: string, abstracts: Abstract[]): void {
  const sci = join(dir, "scifact");
  mkdirSync(sci, { recursive: true });
  for (const a of abstracts) writeFileSync(join(sci, `${a._id}.md`), `# ${a.title}\n\n${a.text}\n`);
  const modules = join(ROOT, "node_modules");
  for (const abs of walk(modules, (name) => TEXT_NAME.test(name))) {
    const target = join(dir, "npm", relative(modules, abs));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(abs, target);
  }
}

function listCorpus(dir: string): CorpusFile[] {
  return walk(dir, () => true)
    .map((abs) => ({ abs, rel: relative(dir, abs).split("\\").join("/"), size: statSync(abs).size }))
    .filter((f) => f.size <= MAX_FILE_BYTES);
}

/** A Markdown document of about `lines` lines built from real abstracts: sections, paragraphs, lists, a table. */
function longMarkdown(abstracts: Abstract[], lines: number): string {
  const out: string[] = ["# Collected abstracts", "", "A long document assembled for the edit-latency benchmark.", ""];
  let i = 0;
  while (out.length < lines) {
    const a = abstracts[i % abstracts.length]!;
    const sentences = a.text.split(/(?<=\.)\s+/).filter((s) => s.length > 0);
    out.push(`## ${a.title}`, "");
    if (i % 4 === 1) {
      for (const s of sentences) out.push(`- ${s}`);
    } else if (i % 9 === 2) {
      out.push("| id | sentences | characters |", "|---|---|---|", `| ${a._id} | ${sentences.length} | ${a.text.length} |`);
    } else {
      for (const s of sentences) out.push(s);
    }
    out.push("");
    i++;
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The floor: read every file and hash it. */
function measureFloor(files: CorpusFile[]): FloorResult {
  const start = performance.now();
  let bytes = 0;
  for (const f of files) {
    const b = readFileSync(f.abs);
    sha256(b);
    bytes += b.byteLength;
  }
  return { ms: performance.now() - start, bytes };
}

interface Bench {
  app: App;
  projectId: string;
  dir: string;
  close(): Promise<void>;
}

/** A fresh app on a fresh database file. */
async function openBench(): Promise<Bench> {
  const dir = mkdtempSync(join(tmpdir(), "pks-bench-ingest-"));
  const config = loadConfig({ root: dir, db: `file:${join(dir, "bench.db")}` }, { PKS_LOG: "silent" });
  const app = await createApp(config);
  const project = await createProject(app.deps.db, { name: "bench" });
  return {
    app,
    projectId: project.projectId,
    dir,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function pragmas(app: App): Promise<string> {
  const jm = await app.deps.db.get<{ journal_mode: string }>("PRAGMA journal_mode");
  const sync = await app.deps.db.get<{ synchronous: number }>("PRAGMA synchronous");
  return `journal_mode=${jm?.journal_mode}, synchronous=${Number(sync?.synchronous) === 2 ? "FULL" : sync?.synchronous}`;
}

async function count(app: App, sql: string): Promise<number> {
  const row = await app.deps.db.get<{ n: number }>(sql);
  return Number(row?.n ?? 0);
}

function dbBytes(dir: string): number {
  return readdirSync(dir)
    .filter((n) => n.startsWith("bench.db"))
    .reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
}

/** Ingests the corpus in batches into `bench` and waits until every file is read. */
async function coldIngest(bench: Bench, files: CorpusFile[], batch: number): Promise<ColdResult> {
  const { app, projectId } = bench;
  let acceptMs = 0;
  let accepted = 0;
  let refused = 0;
  let bytes = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < files.length; i += batch) {
    const slice = files.slice(i, i + batch).map((f) => ({ path: f.rel, bytes: new Uint8Array(readFileSync(f.abs)) }));
    for (const f of slice) bytes += f.bytes.byteLength;
    const t = performance.now();
    const answer: IngestAnswer = await ingestBatch(app.db, { projectId }, { files: slice }, app.tools);
    acceptMs += performance.now() - t;
    accepted += answer.accepted.length;
    refused += answer.refused.length;
    app.worker.kick();
  }
  await app.worker.whenIdle();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const rows = await app.deps.db.all<{ status: string; n: number }>("SELECT status, count(*) AS n FROM files GROUP BY status");
  return {
    ms,
    acceptMs,
    cpuMs: (used.user + used.system) / 1000,
    files: files.length,
    bytes,
    accepted,
    refused,
    status: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
    factions: await count(app, "SELECT count(*) AS n FROM factions WHERE retired_at IS NULL"),
    cells: await count(app, "SELECT count(*) AS n FROM cells WHERE retired_at IS NULL"),
    dbBytes: dbBytes(bench.dir),
  };
}

/** Up to `n` documents spread evenly over the size range of those that yielded cells. */
async function pickFiles(bench: Bench, files: CorpusFile[], n: number): Promise<CorpusFile[]> {
  const rows = await bench.app.deps.db.all<{ path: string }>(
    "SELECT DISTINCT f.path FROM files f JOIN cells c ON c.file_id = f.file_id AND c.retired_at IS NULL WHERE f.status = 'ready'",
  );
  const read = new Set(rows.map((r) => r.path));
  const candidates = files.filter((f) => read.has(f.rel) && editableLine(readFileSync(f.abs, "utf8")) >= 0);
  candidates.sort((a, b) => a.size - b.size);
  const picks: CorpusFile[] = [];
  for (let k = 0; k < n && candidates.length > 0; k++) {
    const f = candidates[Math.round((k * (candidates.length - 1)) / Math.max(1, n - 1))]!;
    if (!picks.includes(f)) picks.push(f);
  }
  return picks;
}

/** The middle-most prose line outside code fences and front matter, or -1. */
function editableLine(text: string): number {
  const lines = text.split("\n");
  let fenced = false;
  const prose: number[] = [];
  for (const [i, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^[A-Za-z][^|<>`]*[A-Za-z0-9.,)]$/.test(line.trim()) && line.length > 20 && !/^\s{4}/.test(line)) prose.push(i);
  }
  if (lines[0]?.trim() === "---") return prose.find((i) => i > lines.indexOf("---", 1)) ?? -1;
  return prose.length === 0 ? -1 : prose[Math.floor(prose.length / 2)]!;
}

/** The file with one line changed: a new sentence carrying `marker` is added to a prose line. */
function editOneLine(text: string, marker: string): string {
  const lines = text.split("\n");
  const at = editableLine(text);
  const line = lines[at]!.replace(/\s+$/, "");
  lines[at] = `${line}${/[.!?]$/.test(line) ? "" : "."} The benchmark marker ${marker} was added here.`;
  return lines.join("\n");
}

async function markerIsLive(bench: Bench, path: string, marker: string): Promise<boolean> {
  const row = await bench.app.deps.db.get(
    `SELECT 1 FROM cells c JOIN files f ON f.file_id = c.file_id
     WHERE f.project_id = ? AND f.path = ? AND c.retired_at IS NULL AND c.text LIKE ? LIMIT 1`,
    [bench.projectId, path, `%${marker}%`],
  );
  return row !== undefined;
}

/** Time from reading the saved file to its new cell being live. */
async function saveToQueryable(bench: Bench, abs: string, path: string, marker: string, text: string): Promise<number> {
  writeFileSync(abs, text);
  const start = performance.now();
  const bytes = new Uint8Array(readFileSync(abs));
  await ingestBatch(bench.app.db, { projectId: bench.projectId }, { files: [{ path, bytes }] }, bench.app.tools);
  bench.app.worker.kick();
  await bench.app.worker.whenIdle();
  while (!(await markerIsLive(bench, path, marker))) await new Promise((r) => setTimeout(r, 1));
  return performance.now() - start;
}

function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Median time to read and hash one file. */
function floorOne(abs: string): number {
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    sha256(readFileSync(abs));
    samples.push(performance.now() - t);
  }
  return quantile(samples, 0.5);
}

async function measureEdits(bench: Bench, picks: CorpusFile[], edits: number, scratch: string): Promise<EditSample[]> {
  const samples: EditSample[] = [];
  for (const [i, f] of picks.entries()) {
    const original = readFileSync(f.abs, "utf8");
    const editedPath = join(scratch, `edit-${i}`);
    for (let e = 0; e < edits; e++) {
      const marker = `zqedit${i}x${e}`;
      const text = editOneLine(original, marker);
      const editMs = await saveToQueryable(bench, editedPath, f.rel, marker, text);
      const freshMs = await saveToQueryable(bench, editedPath, `fresh/${i}-${e}/${f.rel}`, marker, text);
      samples.push({ path: f.rel, bytes: Buffer.byteLength(text), lines: lineCount(text), editMs, freshMs, floorMs: floorOne(editedPath) });
    }
  }
  return samples;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const MB = 1_000_000;
const fmt = (n: number, digits = 1): string => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ")).join("\n");
}

/** The run in the middle by wall time (the lower one of the two middle runs for an even count). */
function medianRun<T extends { ms: number }>(runs: T[]): T {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor((runs.length - 1) / 2)]!;
}

function summarizeCold(floor: FloorResult[], cold: ColdResult[]) {
  const f = medianRun(floor);
  const c = medianRun(cold);
  const perSec = (n: number, ms: number) => n / (ms / 1000);
  return {
    floor: { ms: f.ms, filesPerSec: perSec(c.files, f.ms), mbPerSec: perSec(f.bytes / MB, f.ms), runsMs: floor.map((x) => x.ms) },
    ingest: {
      ms: c.ms,
      acceptMs: c.acceptMs,
      cpuMs: c.cpuMs,
      filesPerSec: perSec(c.files, c.ms),
      mbPerSec: perSec(c.bytes / MB, c.ms),
      filesPerCpuSec: perSec(c.files, c.cpuMs),
      runsMs: cold.map((x) => x.ms),
    },
    ratioToFloor: c.ms / f.ms,
    counts: { files: c.files, bytes: c.bytes, accepted: c.accepted, refused: c.refused, status: c.status, factions: c.factions, cells: c.cells, dbBytes: c.dbBytes },
  };
}

function summarizeEdits(samples: EditSample[]) {
  const edit = samples.map((s) => s.editMs);
  const fresh = samples.map((s) => s.freshMs);
  const floor = samples.map((s) => s.floorMs);
  const perFile = samples.map((s) => s.editMs / s.freshMs);
  return {
    samples: samples.length,
    editMs: { p50: quantile(edit, 0.5), p95: quantile(edit, 0.95), max: Math.max(...edit) },
    freshMs: { p50: quantile(fresh, 0.5), p95: quantile(fresh, 0.95), max: Math.max(...fresh) },
    floorMs: { p50: quantile(floor, 0.5), p95: quantile(floor, 0.95) },
    ratioToFresh: { p50: quantile(edit, 0.5) / quantile(fresh, 0.5), p95: quantile(edit, 0.95) / quantile(fresh, 0.95), perFileMedian: quantile(perFile, 0.5) },
    ratioToFloor: { p50: quantile(edit, 0.5) / quantile(floor, 0.5), p95: quantile(edit, 0.95) / quantile(floor, 0.95) },
  };
}

function printCold(s: ReturnType<typeof summarizeCold>, runs: number): void {
  const c = s.counts;
  console.log(`\ncold ingest (median of ${runs} runs; ${c.files} files, ${fmt(c.bytes / MB, 2)} MB)`);
  console.log(
    table([
      ["", "ms", "files/s", "MB/s", "× floor"],
      ["floor: read + sha256", fmt(s.floor.ms), fmt(s.floor.filesPerSec, 0), fmt(s.floor.mbPerSec, 2), "1.0"],
      ["ingest: accept + read to idle", fmt(s.ingest.ms), fmt(s.ingest.filesPerSec, 0), fmt(s.ingest.mbPerSec, 2), fmt(s.ratioToFloor)],
    ]),
  );
  console.log(
    `  accept phase ${fmt(s.ingest.acceptMs)} ms; cpu ${fmt(s.ingest.cpuMs)} ms (${fmt(s.ingest.filesPerCpuSec, 0)} files per cpu-second); ` +
      `runs ${s.ingest.runsMs.map((x) => fmt(x, 0)).join(", ")} ms`,
  );
  console.log(
    `  accepted ${c.accepted}, refused ${c.refused}; ` +
      `files ${JSON.stringify(c.status)}; live factions ${c.factions}, cells ${c.cells}; db ${fmt(c.dbBytes / MB, 1)} MB`,
  );
}

function printEdits(s: ReturnType<typeof summarizeEdits>, samples: EditSample[], longPath: string): void {
  const files = new Set(samples.map((x) => x.path)).size;
  console.log(`\nsave-to-queryable, one-line edit (${s.samples} edits over ${files} files, ${fmt(Math.min(...samples.map((x) => x.bytes)) / 1000, 1)}–${fmt(Math.max(...samples.map((x) => x.bytes)) / 1000, 1)} kB)`);
  console.log(
    table([
      ["", "p50 ms", "p95 ms", "max ms"],
      ["edit: re-ingest, incremental read", fmt(s.editMs.p50, 2), fmt(s.editMs.p95, 2), fmt(s.editMs.max, 2)],
      ["fresh: same bytes, new path", fmt(s.freshMs.p50, 2), fmt(s.freshMs.p95, 2), fmt(s.freshMs.max, 2)],
      ["floor: read + sha256 of the file", fmt(s.floorMs.p50, 3), fmt(s.floorMs.p95, 3), ""],
    ]),
  );
  console.log(
    `  edit / fresh: p50 ${fmt(s.ratioToFresh.p50, 2)}, p95 ${fmt(s.ratioToFresh.p95, 2)}, per-file median ${fmt(s.ratioToFresh.perFileMedian, 2)}; ` +
      `edit / floor: p50 ${fmt(s.ratioToFloor.p50, 0)}×, p95 ${fmt(s.ratioToFloor.p95, 0)}×`,
  );
  const longest = samples.filter((x) => x.path === longPath);
  if (longest.length > 0) {
    console.log(`  ${longest[0]!.path} (${longest[0]!.lines} lines): edit ${longest.map((x) => fmt(x.editMs, 1)).join(", ")} ms; fresh ${longest.map((x) => fmt(x.freshMs, 1)).join(", ")} ms`);
  }
}

/** Cold ingest `runs` times, each into a fresh database, with the floor measured before each; the last app stays open. */
async function runCold(files: CorpusFile[], opts: Options): Promise<{ summary: ReturnType<typeof summarizeCold>; bench: Bench }> {
  measureFloor(files); // warm the page cache for both sides
  const floor: FloorResult[] = [];
  const cold: ColdResult[] = [];
  let bench: Bench | undefined;
  for (let r = 0; r < opts.runs; r++) {
    floor.push(measureFloor(files));
    await bench?.close();
    bench = await openBench();
    if (r === 0) console.log(`database: ${await pragmas(bench.app)}`);
    cold.push(await coldIngest(bench, files, opts.batch));
    console.log(`  run ${r + 1}: floor ${fmt(floor[r]!.ms)} ms, ingest ${fmt(cold[r]!.ms)} ms`);
  }
  return { summary: summarizeCold(floor, cold), bench: bench! };
}

function writeResults(result: unknown): void {
  const out = join(ROOT, "bench", "results");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "ingest.json"), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwrote ${relative(ROOT, join(out, "ingest.json"))}`);
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  if (!existsSync(SCIFACT)) throw new Error(`${SCIFACT} is missing: it feeds the default corpus and the generated long document`);
  const scratch = mkdtempSync(join(tmpdir(), "pks-bench-corpus-"));
  try {
    const abstracts = readAbstracts();
    const corpusDir = opts.corpus ?? join(scratch, "corpus");
    if (!opts.corpus) buildDefaultCorpus(corpusDir, abstracts);
    const files = listCorpus(corpusDir);
    const longDoc: CorpusFile = { abs: join(scratch, "long.md"), rel: "generated/long-document.md", size: 0 };
    writeFileSync(longDoc.abs, longMarkdown(abstracts, LONG_DOC_LINES));
    longDoc.size = statSync(longDoc.abs).size;
    console.log(`corpus: ${opts.corpus ?? "SciFact abstracts as Markdown + node_modules text files"}: ${files.length} files`);
    console.log(`machine: ${cpus().length} cpus, load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);

    const { summary: cold, bench } = await runCold(files, opts);
    printCold(cold, opts.runs);

    await coldIngest(bench, [longDoc], 1);
    const picks = [...(await pickFiles(bench, files, opts.picks - 1)), longDoc];
    const samples = await measureEdits(bench, picks, opts.edits, scratch);
    const edit = summarizeEdits(samples);
    printEdits(edit, samples, longDoc.rel);
    await bench.close();

    const machine = { cpus: cpus().length, loadAverage: loadavg() };
    writeResults({ at: new Date().toISOString(), node: process.version, machine, options: opts, cold, edit, editSamples: samples });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
