/**
 * Re-reading a 2,000-line Markdown document after a one-line edit: the
 * reading before (the whole document parsed, as every re-read did) and
 * after (only the changed part parsed, the others taken from the previous
 * reading), each edit checked to give the same output both ways; what a
 * first reading costs now that it keeps its parts; the whole reading a
 * reader thread does (credential scan, reader, entity spotting); then the
 * persistence of the edited reading (`applyReading` and the full-text rows,
 * in one transaction on a file database).
 *
 *   node --import tsx bench/markdown-incremental.ts [--edits N] [--lines N]
 *
 * The document is built from the prose of README files under node_modules
 * (sections with paragraphs, lists, tables and fenced shell blocks). Each edit
 * appends a word to one prose line, on top of the edits before it, as
 * someone typing would. Figures go to stdout and to
 * bench/results/markdown-incremental.json.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { createApp } from "../src/app.js";
import { forgetSpotted, spotDocument } from "../src/entities/spot-document.js";
import { loadConfig } from "../src/config.js";
import { ingestBatch } from "../src/ingest/accept/ingest-batch.js";
import { applyReading } from "../src/ingest/read/apply-reading.js";
import type { ReadingToApply } from "../src/ingest/read/apply-reading.js";
import type { ReadingStats } from "../src/ingest/read/apply-reading.js";
import { readRequest } from "../src/ingest/read/pool/read-request.js";
import { readers } from "../src/readers/index.js";
import { MarkdownPartCache, markdownReadCounts, readMarkdownSource, resetMarkdownReadCounts } from "../src/readers/markdown/markdown-incremental.js";
import { createProject } from "../src/store/access/projects.js";
import { percentile } from "./lib/ir-metrics.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

/** Prose paragraphs (blank-line separated, no markup) from the README files of installed packages. */
function readmeParagraphs(): string[] {
  const modules = join(ROOT, "node_modules");
  const out: string[] = [];
  for (const name of readdirSync(modules).sort()) {
    const file = join(modules, name, "README.md");
    try {
      if (!statSync(file).isFile()) continue;
    } catch {
      continue;
    }
    const paragraphs = readFileSync(file, "utf8")
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s+/g, " ").trim())
      .filter((p) => /^[A-Za-z]/.test(p) && p.length > 60 && !/[|`<>#[\]]/.test(p));
    out.push(...paragraphs);
    if (out.length >= 400) break;
  }
  return out.length > 0 ? out : ["A sentence of filler text. Another one follows it. A third closes the paragraph."];
}

/**
 * A document of exactly `lines` lines: a section per paragraph, its
 * sentences as lines; every fourth section a list, every ninth a table,
 * every seventh a fenced shell block whose comments look like headings.
 */
function longDocument(paragraphs: readonly string[], lines: number): string {
  const out: string[] = ["# Collected notes", "", "A long document for the re-reading benchmark.", ""];
  for (let i = 0; out.length < lines; i++) {
    const sentences = paragraphs[i % paragraphs.length]!.split(/(?<=\.)\s+/).filter((x) => x.length > 0);
    out.push(`## Section ${i + 1}`, "");
    if (i % 4 === 1) for (const x of sentences) out.push(`- ${x}`);
    else if (i % 9 === 2) out.push("| section | sentences |", "|---|---|", `| ${i + 1} | ${sentences.length} |`);
    else for (const x of sentences) out.push(x);
    if (i % 7 === 3) out.push("", "```sh", `# step ${i + 1}`, `make section-${i + 1}`, "```");
    out.push("");
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** A small deterministic generator, so every run edits the same lines. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The documents after each edit: one prose line gets one more word. */
function editSeries(document: string, edits: number): string[] {
  const lines = document.split("\n");
  const prose = lines.flatMap((l, i) => (/^[A-Za-z]/.test(l) && !l.startsWith("|") ? [i] : []));
  const random = seeded(7);
  const out: string[] = [];
  for (let k = 0; k < edits; k++) {
    const at = prose[Math.floor(random() * prose.length)]!;
    lines[at] = `${lines[at]} Edited${k}`;
    out.push(lines.join("\n"));
  }
  return out;
}

function timed<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

async function timedAsync<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const summary = (xs: readonly number[]) => ({ p50: Number(percentile(xs, 50).toFixed(2)), p95: Number(percentile(xs, 95).toFixed(2)) });

async function main(): Promise<void> {
  const edits = option("edits", 40);
  const lineCount = option("lines", 2000);
  const document = longDocument(readmeParagraphs(), lineCount);
  const series = editSeries(document, edits);
  const path = "docs/long.md";
  console.log(`document: ${lineCount} lines, ${document.length.toLocaleString("en-US")} characters; ${edits} one-line edits`);

  // 1. The parse: whole document against the changed part only (same process, alternating).
  const cache = new MarkdownPartCache();
  readMarkdownSource(document, path, cache);
  resetMarkdownReadCounts();
  const whole: number[] = [];
  const parts: number[] = [];
  const firstKept: number[] = [];
  for (const [k, text] of series.entries()) {
    const before = timed(() => readMarkdownSource(text, path));
    const after = timed(() => readMarkdownSource(text, path, cache));
    if (!isDeepStrictEqual(before.value, after.value)) throw new Error("the incremental reading differs from the full parse");
    whole.push(before.ms);
    parts.push(after.ms);
    // A first reading that keeps its parts for the next one (a path this cache has not seen).
    firstKept.push(timed(() => readMarkdownSource(text, `docs/first-${k}.md`, new MarkdownPartCache())).ms);
  }
  const counts = markdownReadCounts();
  // 2. The thread's whole reading (credential scan, reader, entity spotting): a fresh path reads in full.
  const encoder = new TextEncoder();
  const request = (text: string, p: string) => ({ path: p, contentType: "text/markdown", bytes: encoder.encode(text), includeSecret: false });
  await readRequest(readers, request(document, path));
  const threadWhole: number[] = [];
  const threadParts: number[] = [];
  const outputs: ReadingToApply[] = [];
  const spotting: number[] = [];
  for (const [k, text] of series.entries()) {
    forgetSpotted(); // a first reading spots every cell
    const before = await timedAsync(() => readRequest(readers, request(text, `docs/fresh-${k}.md`)));
    const after = await timedAsync(() => readRequest(readers, request(text, path)));
    if (after.value.type !== "done" || before.value.type !== "done") throw new Error("a reading failed");
    threadWhole.push(before.ms);
    threadParts.push(after.ms);
    const { type: _done, ...reading } = after.value;
    outputs.push(reading);
    spotting.push(timed(() => spotDocument(after.value.type === "done" ? after.value.output : { factions: [], cells: [] })).ms);
  }

  // 3. Persistence of each edited reading on a file database.
  const dir = mkdtempSync(join(tmpdir(), "pks-md-incremental-"));
  const app = await createApp(loadConfig({ root: dir, db: `file:${join(dir, "pks.db")}` }, { PKS_LOG: "silent" }));
  const persist: number[] = [];
  const changes: ReadingStats[] = [];
  try {
    const project = await createProject(app.deps.db, { name: "bench-markdown-incremental" });
    const answer = await ingestBatch({ projectId: project.projectId }, { files: [{ path, bytes: encoder.encode(document) }] }, app.tools);
    app.worker.kick();
    await app.worker.whenIdle();
    const fileId = answer.accepted[0]?.fileId;
    if (fileId === undefined) throw new Error("the document was not accepted");
    for (const reading of outputs) {
      const now = new Date().toISOString();
      // As the worker writes it: the derivers' writer phase, search rows included (only those the reading changed).
      const { ms, value } = await timedAsync(() => app.deps.db.transaction((tx) => applyReading(tx, { projectId: project.projectId, fileId }, reading, now)));
      persist.push(ms);
      changes.push(value);
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const ratio = (a: number[], b: number[], p: number) => (percentile(a, p) / percentile(b, p)).toFixed(1);
  console.log(`parse, whole document      p50 ${fmt(percentile(whole, 50))}  p95 ${fmt(percentile(whole, 95))}`);
  console.log(`first reading, parts kept  p50 ${fmt(percentile(firstKept, 50))}  p95 ${fmt(percentile(firstKept, 95))}`);
  console.log(`parse, changed part only   p50 ${fmt(percentile(parts, 50))}  p95 ${fmt(percentile(parts, 95))}  (${ratio(whole, parts, 50)}× faster at p50)`);
  const fallbacks = Object.values(counts.fallbacks).reduce((a, b) => a + b, 0);
  console.log(`  ${counts.incremental} readings from parts: ${counts.partsParsed} parts parsed, ${counts.partsReused} reused; ${fallbacks} fell back to the whole document`);
  console.log(`thread reading, first read p50 ${fmt(percentile(threadWhole, 50))}  p95 ${fmt(percentile(threadWhole, 95))}`);
  console.log(`thread reading, re-read    p50 ${fmt(percentile(threadParts, 50))}  p95 ${fmt(percentile(threadParts, 95))}  (credential scan + reader + entity spotting)`);
  console.log(`  of which entity spotting p50 ${fmt(percentile(spotting, 50))}  p95 ${fmt(percentile(spotting, 95))}`);
  const added = changes.map((c) => c.factionsAdded);
  const retired = changes.map((c) => c.factionsRetired);
  const kept = changes.map((c) => c.factionsKept);
  console.log(`persistence (applyReading + full-text rows, one transaction)  p50 ${fmt(percentile(persist, 50))}  p95 ${fmt(percentile(persist, 95))}`);
  console.log(`  factions per edit: added ${Math.max(...added)} max, retired ${Math.max(...retired)} max, kept ${Math.min(...kept)} min`);

  const results = {
    lines: lineCount,
    characters: document.length,
    edits,
    parseWholeMs: summary(whole),
    parsePartsMs: summary(parts),
    firstReadingKeptMs: summary(firstKept),
    threadFirstReadMs: summary(threadWhole),
    threadReReadMs: summary(threadParts),
    spottingMs: summary(spotting),
    persistMs: summary(persist),
    counts,
    factionsAddedMax: Math.max(...added),
    factionsRetiredMax: Math.max(...retired),
    factionsKeptMin: Math.min(...kept),
  };
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(ROOT, "bench", "results", "markdown-incremental.json"), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
