/**
 * Entity spotting speed: milliseconds per cell for `spotDocument` over a
 * fixed corpus of real document cells, and the precision and recall of
 * `bench/eval-entities.ts` beside it, so a faster spotter is seen to find
 * the same names.
 *
 * Corpus: every Markdown file under docs/ and every file under
 * test/golden/readers/input/, read by the real readers; with `--readmes N`,
 * also the README.md of the first N packages under node_modules (by path);
 * with `--scifact FILE` (or `PKS_SCIFACT`), also the first `--scifact-limit`
 * abstracts (default 500) of a BEIR `corpus.jsonl`, each as `# title` and
 * its text; with `--tree DIR` (or `PKS_ENTITY_TREE`), also every Markdown
 * file under DIR (a repository's README, changelogs and guides: vuejs/core's
 * changelogs are most of the spotting of its cold ingest).
 *
 * Each round is a fresh process (spotting keeps per-process caches, and an
 * ingest spots each document once): it loads the tagger on a warm-up text
 * outside the corpus, then spots every document of the corpus once. The
 * figure is the median over rounds of the spotting time divided by the
 * cells. "Spotted again" is a second pass over the same documents in the
 * same process, as when a reader thread reads unchanged cells again. With `--baseline DIR` (a checkout of an earlier `src/`, e.g.
 * `git archive HEAD src package.json | tar -x -C DIR` with `node_modules`
 * linked in), rounds alternate between that spotter and this one, and the
 * entities both find are compared document by document.
 *
 * Usage: node --import tsx bench/entity-spotting.ts [--rounds N]
 *          [--baseline DIR] [--readmes N] [--scifact FILE] [--scifact-limit N] [--tree DIR] [--no-eval]
 * Writes bench/results/entity-spotting.json.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { defaultContentType } from "../src/ingest/accept/media-types.js";
import { readerFor } from "../src/readers/index.js";
import type { SpottableReading } from "../src/entities/spot-document.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const TARGET_MS_PER_CELL = 0.2;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function positive(name: string, fallback: number): number {
  const raw = flag(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number ≥ 1, got ${raw}`);
  return n;
}

const ROUNDS = positive("--rounds", 5);
const BASELINE = flag("--baseline") ?? process.env.PKS_ENTITY_BASELINE;
const SCIFACT = flag("--scifact") ?? process.env.PKS_SCIFACT;
const SCIFACT_LIMIT = positive("--scifact-limit", 500);
const READMES = flag("--readmes") === undefined ? 0 : positive("--readmes", 1);
const TREE = flag("--tree") ?? process.env.PKS_ENTITY_TREE;
const CHILD = flag("--child");

interface Source {
  path: string;
  contentType: string;
  bytes: Uint8Array;
}

interface Round {
  spotter: "baseline" | "current";
  documents: number;
  cells: number;
  /** Loading the tagger and spotting the warm-up text. */
  warmUpMs: number;
  spotMs: number;
  msPerCell: number;
  /** The same documents spotted again in the same process, as a re-read of unchanged files is. */
  againMsPerCell: number;
  /** sha256 of each document's entities, in corpus order. */
  digests: string[];
}

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

/** README.md of the first `n` packages under node_modules (scoped ones included), by path. */
function readmes(n: number): string[] {
  const base = join(ROOT, "node_modules");
  if (n === 0 || !existsSync(base)) return [];
  const packages = readdirSync(base)
    .sort()
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(base, name)).sort().map((inner) => join(base, name, inner)) : [join(base, name)]));
  return packages.map((dir) => join(dir, "README.md")).filter((path) => existsSync(path)).slice(0, n);
}

function abstracts(file: string, limit: number): Source[] {
  const out: Source[] = [];
  for (const [i, line] of readFileSync(file, "utf8").split("\n").entries()) {
    if (out.length >= limit) break;
    if (line.trim() === "") continue;
    const row = JSON.parse(line) as { _id?: unknown; title?: unknown; text?: unknown };
    if (typeof row._id !== "string" || typeof row.text !== "string") throw new Error(`${file}:${i + 1}: not a BEIR corpus line (needs _id and text)`);
    const title = typeof row.title === "string" && row.title.length > 0 ? `# ${row.title}\n\n` : "";
    out.push({ path: `scifact/${row._id}.md`, contentType: "text/markdown", bytes: Buffer.from(`${title}${row.text}\n`) });
  }
  return out;
}

function corpus(): Source[] {
  const docs = filesUnder(join(ROOT, "docs"), (p) => p.endsWith(".md"));
  const golden = filesUnder(join(ROOT, "test/golden/readers/input"), () => true);
  const tree = TREE === undefined ? [] : filesUnder(resolve(TREE), (p) => p.endsWith(".md") && !p.includes("/node_modules/"));
  const files = [...docs, ...golden, ...readmes(READMES), ...tree].map((path) => {
    const rel = relative(ROOT, path).split("\\").join("/");
    return { path: rel, contentType: defaultContentType(rel), bytes: readFileSync(path) };
  });
  return SCIFACT === undefined ? files : [...files, ...abstracts(SCIFACT, SCIFACT_LIMIT)];
}

async function readings(sources: readonly Source[]): Promise<SpottableReading[]> {
  const out: SpottableReading[] = [];
  for (const source of sources) {
    const reader = readerFor(source);
    if (reader === undefined) continue;
    const output = await reader.read(source);
    if (output.code === undefined) out.push(output);
  }
  return out;
}

/** A text outside the corpus that makes the spotter load the tagger and its word list. */
const WARM_UP: SpottableReading = {
  factions: [{ factionType: "paragraph", headingPath: ["Warm-up"], text: "Ada Lovelace wrote notes on the Analytical Engine in London; dpkg-deb --build packs them." }],
  cells: [{ faction: 0, text: "Ada Lovelace wrote notes on the Analytical Engine in London; dpkg-deb --build packs them." }],
};

type Spot = (reading: SpottableReading) => unknown;

async function spotterOf(which: "baseline" | "current"): Promise<Spot> {
  const base = which === "baseline" ? resolve(BASELINE ?? "") : ROOT;
  const url = pathToFileURL(join(base, "src/entities/spot-document.ts")).href;
  const module = (await import(url)) as { spotDocument: Spot };
  return module.spotDocument;
}

/** One round in this process: warm up, then spot every document once. */
async function runRound(which: "baseline" | "current"): Promise<Round> {
  const docs = await readings(corpus());
  const spot = await spotterOf(which);
  const t0 = performance.now();
  spot(WARM_UP);
  const warmUpMs = performance.now() - t0;
  const results: unknown[] = [];
  const t1 = performance.now();
  for (const doc of docs) results.push(spot(doc));
  const spotMs = performance.now() - t1;
  const t2 = performance.now();
  for (const doc of docs) spot(doc);
  const againMs = performance.now() - t2;
  const cells = docs.reduce((n, d) => n + d.cells.length, 0);
  const digests = results.map((r) => createHash("sha256").update(JSON.stringify(r)).digest("hex"));
  return { spotter: which, documents: docs.length, cells, warmUpMs, spotMs, msPerCell: spotMs / cells, againMsPerCell: againMs / cells, digests };
}

function roundInChild(which: "baseline" | "current"): Round {
  const args = ["--import", "tsx", SELF, "--child", which, ...(BASELINE ? ["--baseline", BASELINE] : []), ...(READMES > 0 ? ["--readmes", String(READMES)] : [])];
  if (SCIFACT !== undefined) args.push("--scifact", SCIFACT, "--scifact-limit", String(SCIFACT_LIMIT));
  if (TREE !== undefined) args.push("--tree", TREE);
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${which} round failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Round;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

interface EvalFigures {
  precision: number;
  recall: number;
  kindAccuracy: number;
}

/** Runs bench/eval-entities.ts and reads its summary. */
function evaluation(): { sample: EvalFigures; all: EvalFigures } | undefined {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "bench/eval-entities.ts")], { encoding: "utf8" });
  const path = join(ROOT, "bench/results/eval-entities.json");
  if (r.status === null || !existsSync(path)) return undefined;
  const summary = JSON.parse(readFileSync(path, "utf8")) as { sample: EvalFigures; all: EvalFigures };
  return { sample: summary.sample, all: summary.all };
}

function summarize(rounds: readonly Round[]) {
  return {
    rounds: rounds.length,
    msPerCell: median(rounds.map((r) => r.msPerCell)),
    againMsPerCell: median(rounds.map((r) => r.againMsPerCell)),
    spotMs: median(rounds.map((r) => r.spotMs)),
    warmUpMs: median(rounds.map((r) => r.warmUpMs)),
  };
}

async function main(): Promise<void> {
  if (CHILD === "baseline" || CHILD === "current") {
    process.stdout.write(JSON.stringify(await runRound(CHILD)));
    return;
  }
  if (BASELINE !== undefined && !existsSync(join(resolve(BASELINE), "src/entities/spot-document.ts"))) {
    throw new Error(`--baseline ${BASELINE}: no src/entities/spot-document.ts there`);
  }
  const current: Round[] = [];
  const baseline: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which spotter runs first, so neither always meets a quieter machine.
    const order: ("baseline" | "current")[] = BASELINE === undefined ? ["current"] : i % 2 === 0 ? ["baseline", "current"] : ["current", "baseline"];
    for (const which of order) (which === "current" ? current : baseline).push(roundInChild(which));
  }
  const first = current[0];
  if (first === undefined) throw new Error("no round ran");
  const now = summarize(current);
  const extras = [READMES > 0 ? `${READMES} package READMEs at most` : "", SCIFACT ? `${SCIFACT_LIMIT} SciFact abstracts at most` : ""].filter((x) => x.length > 0);
  console.log(`corpus: ${first.documents} documents, ${first.cells} cells${extras.length > 0 ? ` (with ${extras.join(", ")})` : ""}; ${ROUNDS} rounds, median`);
  const line = (title: string, s: ReturnType<typeof summarize>) =>
    console.log(
      `${title.padEnd(10)} ${s.msPerCell.toFixed(4)} ms/cell  (${s.spotMs.toFixed(0)} ms spotting, ${s.warmUpMs.toFixed(0)} ms tagger load and warm-up); spotted again ${s.againMsPerCell.toFixed(4)} ms/cell`,
    );
  let identical: boolean | undefined;
  let before: ReturnType<typeof summarize> | undefined;
  if (baseline.length > 0) {
    before = summarize(baseline);
    line("before", before);
    const reference = baseline[0]?.digests ?? [];
    const differing = first.digests.filter((d, i) => d !== reference[i]).length;
    identical = differing === 0;
    console.log(`entities: ${identical ? "identical in every document" : `differ in ${differing} of ${first.documents} documents`}`);
    if (!identical) process.exitCode = 1;
  }
  line("after", now);
  if (before !== undefined) console.log(`speed-up  ${(before.msPerCell / now.msPerCell).toFixed(1)}×`);
  console.log(`target    ≤ ${TARGET_MS_PER_CELL} ms/cell: ${now.msPerCell <= TARGET_MS_PER_CELL ? "met" : "NOT met"}`);
  const scores = process.argv.includes("--no-eval") ? undefined : evaluation();
  if (scores !== undefined) {
    const f = (x: EvalFigures) => `precision ${x.precision.toFixed(3)}, recall ${x.recall.toFixed(3)}, kind accuracy ${x.kindAccuracy.toFixed(3)}`;
    console.log(`eval-entities, sample: ${f(scores.sample)}`);
    console.log(`eval-entities, all:    ${f(scores.all)}`);
  }
  const result = { corpus: { documents: first.documents, cells: first.cells, readmes: READMES, scifact: SCIFACT !== undefined }, before, after: now, identical, eval: scores, rounds: { current, baseline } };
  mkdirSync(new URL("results/", import.meta.url), { recursive: true });
  writeFileSync(new URL("results/entity-spotting.json", import.meta.url), `${JSON.stringify(result, (k, v: unknown) => (k === "digests" ? undefined : v), 2)}\n`);
}

await main();
