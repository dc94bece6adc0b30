/**
 * Throughput of the credential-shaped file detector on adversarial input.
 *
 *   node --import tsx bench/secret-scan.ts [--runs N] [--all-floods] [--tree DIR]
 *
 * Scans a 24 MiB adversarial file (near misses of every rule mixed with long
 * runs and keyword floods) and the slowest single-pattern floods (or, with
 * `--all-floods`, every one), each as bytes through `scanForSecrets`, and
 * prints the median time next to two baselines measured on the same bytes in
 * the same run: `Buffer.indexOf` of an absent needle, and one pass of a
 * simple regex. (On a periodic flood `indexOf` skips ahead and is nearly
 * free, so its ratio there is large; the mixed file is the fair comparison.)
 * With `--tree DIR`, also scans every file under DIR and lists the ones it
 * flags. First it prints the recall on the positive corpus (real-shaped
 * keys in 13 syntaxes, each must be reported under its own rule) and the
 * findings on the negative corpus (placeholders, hashes, lockfiles, prose
 * and credential-shaped examples in docstrings, comments and test fixtures).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { scanForSecrets } from "../src/ingest/secrets/scan-for-secrets.js";
import { buildAdversarialInput, pathologicalStrings } from "../test/fixtures/secrets/adversarial-input.js";
import { positiveCorpus } from "../test/fixtures/secrets/positive-corpus.js";

const SIZE = 24 * 1024 * 1024;
const BUDGET_MS = 2000;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const runs = Number(argument("--runs") ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Median wall time of `fn` over `runs` runs, after one warm-up run. */
function time(fn: () => unknown): number {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const mib = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1);
const rate = (bytes: number, ms: number): string => `${((bytes / (1024 * 1024)) / (ms / 1000)).toFixed(0)} MiB/s`;

interface Row {
  name: string;
  bytes: number;
  scanMs: number;
  indexOfMs: number;
  regexMs: number;
  finding: string;
}

function measure(name: string, bytes: Buffer): Row {
  const text = bytes.toString("utf8");
  const finding = scanForSecrets("bench/adversarial.txt", bytes);
  const scanMs = time(() => scanForSecrets("bench/adversarial.txt", bytes));
  const indexOfMs = time(() => bytes.indexOf("pks_absent_needle"));
  const simple = /AKIA[0-9A-Z]{16}/g;
  const regexMs = time(() => {
    simple.lastIndex = 0;
    let count = 0;
    while (simple.exec(text)) count++;
    return count;
  });
  return { name, bytes: bytes.length, scanMs, indexOfMs, regexMs, finding: finding ? `${finding.rule}:${finding.line}` : "none" };
}

function report(row: Row): void {
  const verdict = row.scanMs < BUDGET_MS ? "ok" : "OVER BUDGET";
  console.log(
    `${row.name.padEnd(34)} ${mib(row.bytes)} MiB  scan ${row.scanMs.toFixed(0).padStart(5)} ms (${rate(row.bytes, row.scanMs)})` +
      `  | indexOf ${row.indexOfMs.toFixed(1)} ms, ratio ${(row.scanMs / row.indexOfMs).toFixed(0)}x` +
      `  | simple regex ${row.regexMs.toFixed(1)} ms, ratio ${(row.scanMs / row.regexMs).toFixed(0)}x` +
      `  | finding ${row.finding}  [${verdict} < ${BUDGET_MS} ms]`,
  );
}

console.log(`secret-scan bench: ${runs} timed runs each (median), node ${process.version}`);

/** Recall on the positive corpus and false findings on the negative one: what the speed must not cost. */
function reportAccuracy(): void {
  const corpus = positiveCorpus();
  const missed = corpus.filter((sample) => scanForSecrets(sample.path, sample.content)?.rule !== sample.rule);
  const recall = (100 * (corpus.length - missed.length)) / corpus.length;
  console.log(`positive corpus: ${corpus.length - missed.length} of ${corpus.length} reported under their rule (recall ${recall.toFixed(1)}%)`);
  for (const sample of missed.slice(0, 10)) console.log(`  missed ${sample.name}`);
  const negativeDir = resolve("test/fixtures/secrets/negative");
  const negatives = readdirSync(negativeDir);
  const flagged = negatives.filter((name) => scanForSecrets(`fixtures/${name}`, readFileSync(join(negativeDir, name))) !== null);
  console.log(`negative corpus: ${flagged.length} of ${negatives.length} files flagged${flagged.length ? ` (${flagged.join(", ")})` : ""}`);
}

reportAccuracy();

report(measure("mixed adversarial", Buffer.from(buildAdversarialInput(SIZE))));

// Rank every single-pattern flood at 2 MiB, then time the slowest at 24 MiB
// (all of them with --all-floods).
const allFloods = process.argv.includes("--all-floods");
const floods = pathologicalStrings(2 * 1024 * 1024).map((text) => {
  const bytes = Buffer.from(text);
  return { label: JSON.stringify(text.slice(0, 24)), ms: time(() => scanForSecrets("bench/flood.txt", bytes)) };
});
floods.sort((a, b) => b.ms - a.ms);
const fullSize = pathologicalStrings(SIZE);
let worst: Row | undefined;
for (const flood of allFloods ? floods : floods.slice(0, 5)) {
  const unit = fullSize.find((text) => JSON.stringify(text.slice(0, 24)) === flood.label) ?? "";
  const row = measure(`flood ${flood.label}`, Buffer.from(unit));
  report(row);
  if (!worst || row.scanMs > worst.scanMs) worst = row;
}
if (worst) console.log(`slowest flood: ${worst.name}, ${worst.scanMs.toFixed(0)} ms for ${mib(worst.bytes)} MiB`);

const tree = argument("--tree");
if (tree !== undefined) {
  const root = resolve(tree);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  walk(root);
  let bytes = 0;
  const flagged: string[] = [];
  const start = performance.now();
  for (const file of files) {
    const content = readFileSync(file);
    bytes += content.length;
    const path = relative(root, file);
    const finding = scanForSecrets(path, content);
    if (finding) flagged.push(`  ${finding.rule.padEnd(28)} ${path}:${finding.line}`);
  }
  const ms = performance.now() - start;
  console.log(
    `\ntree ${root}: ${flagged.length} of ${files.length} files flagged (${((100 * flagged.length) / files.length).toFixed(3)}%), ` +
      `${mib(bytes)} MiB read and scanned in ${(ms / 1000).toFixed(1)} s (${rate(bytes, ms)})`,
  );
  for (const line of flagged) console.log(line);
}
