/**
 * Code extraction throughput on a real source tree, against bare parsing
 * with the same runtime in the same run, and against universal-ctags when it
 * is installed.
 *
 *   node --import tsx bench/code-extract.ts [DIR] [--rounds N]
 *
 * Without DIR the corpus is TypeScript's own `lib/*.d.ts` plus hono's
 * `dist` JavaScript from node_modules (about 100k lines).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { extractCode, MAX_SOURCE_CHARS } from "../src/code/extract-code.js";
import { codeLanguageForPath, type CodeLanguage } from "../src/code/languages.js";
import { codeParser } from "../src/code/parser-runtime.js";

interface CorpusFile {
  path: string;
  relativePath: string;
  language: CodeLanguage;
  source: string;
  lines: number;
  bytes: number;
}

/** Wall-clock and CPU seconds; rates use CPU time, steadier on a shared machine (it includes GC threads). */
interface Timing {
  label: string;
  wall: number;
  cpu: number;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function walk(dir: string, keep: (path: string) => boolean, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== ".git") walk(path, keep, into);
    } else if (entry.isFile() && keep(path)) {
      into.push(path);
    }
  }
  return into.sort();
}

function defaultPaths(): string[] {
  const typescriptLib = join(ROOT, "node_modules", "typescript", "lib");
  const honoDist = join(ROOT, "node_modules", "hono", "dist");
  return [
    ...walk(typescriptLib, (path) => path.endsWith(".d.ts") && !path.slice(typescriptLib.length + 1).includes("/")),
    ...walk(honoDist, (path) => /\.(js|cjs|mjs)$/.test(path)),
  ];
}

function loadCorpus(paths: string[], base: string): { files: CorpusFile[]; skipped: number } {
  const files: CorpusFile[] = [];
  let skipped = 0;
  for (const path of paths) {
    const language = codeLanguageForPath(path);
    if (!language) continue;
    const source = readFileSync(path, "utf8");
    if (source.length > MAX_SOURCE_CHARS) {
      skipped++;
      continue;
    }
    const lines = source.split("\n").length;
    files.push({ path, relativePath: relative(base, path), language, source, lines, bytes: Buffer.byteLength(source) });
  }
  return { files, skipped };
}

async function time(label: string, rounds: number, run: () => Promise<void> | void): Promise<Timing> {
  let best: Timing = { label, wall: Number.POSITIVE_INFINITY, cpu: Number.POSITIVE_INFINITY };
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await run();
    const used = process.cpuUsage(cpuStart);
    const cpu = (used.user + used.system) / 1e6;
    if (cpu < best.cpu) best = { label, wall: (performance.now() - start) / 1000, cpu };
  }
  return best;
}

async function parseOnly(files: CorpusFile[]): Promise<void> {
  for (const file of files) {
    const loaded = await codeParser.load(file.language);
    loaded.parse(file.source)?.delete();
  }
}

async function parseAndQuery(files: CorpusFile[]): Promise<void> {
  for (const file of files) {
    const loaded = await codeParser.load(file.language);
    const tree = loaded.parse(file.source);
    if (tree) loaded.query.matches(tree.rootNode);
    tree?.delete();
  }
}

async function extractAll(files: CorpusFile[]): Promise<{ declarations: number; references: number }> {
  let declarations = 0;
  let references = 0;
  for (const file of files) {
    const facts = await extractCode(file.relativePath, file.source);
    declarations += facts?.declarations.length ?? 0;
    references += facts?.references.length ?? 0;
  }
  return { declarations, references };
}

/** Times universal-ctags on the same files; CPU time comes from /usr/bin/time when present. */
function runCtags(files: CorpusFile[]): { timing: Timing; tags: number } | undefined {
  if (spawnSync("ctags", ["--version"], { encoding: "utf8" }).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "pks-ctags-"));
  try {
    const list = join(dir, "files.txt");
    const output = join(dir, "tags.json");
    writeFileSync(list, files.map((file) => file.path).join("\n"));
    const args = ["-R", "--output-format=json", "-f", output, "-L", list];
    let start = performance.now();
    const timed = spawnSync("/usr/bin/time", ["-f", "%U %S", "ctags", ...args], { encoding: "utf8" });
    if (timed.status !== 0) {
      start = performance.now();
      spawnSync("ctags", args, { stdio: "ignore" });
    }
    const wall = (performance.now() - start) / 1000;
    const [user = 0, system = 0] = (timed.stderr ?? "").trim().split(/\s+/).slice(-2).map(Number);
    const cpu = timed.status === 0 ? user + system : wall;
    const tags = readFileSync(output, "utf8").split("\n").filter((line) => line.includes('"_type": "tag"')).length;
    return { timing: { label: "ctags -R --output-format=json", wall, cpu }, tags };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(timing: Timing, lines: number, bytes: number, baseline?: Timing): string {
  const linesPerSecond = Math.round(lines / timing.cpu).toLocaleString("en-US");
  const megabytesPerSecond = (bytes / 1_048_576 / timing.cpu).toFixed(2);
  const ratio = baseline
    ? `  ${(baseline.cpu / timing.cpu).toFixed(2)}× parse-only (cpu), ${(baseline.wall / timing.wall).toFixed(2)}× (wall)`
    : "";
  const seconds = `${timing.cpu.toFixed(3).padStart(7)} s cpu (${timing.wall.toFixed(3)} s wall)`;
  return `${timing.label.padEnd(30)} ${seconds}  ${linesPerSecond.padStart(9)} lines/s  ${megabytesPerSecond.padStart(6)} MB/s${ratio}`;
}

function options(argv: string[]): { dir?: string; rounds: number } {
  const roundsAt = argv.indexOf("--rounds");
  const rounds = roundsAt >= 0 ? Math.max(1, Number(argv[roundsAt + 1]) || 3) : 3;
  const dir = argv.find((arg, index) => !arg.startsWith("--") && argv[index - 1] !== "--rounds");
  return dir === undefined ? { rounds } : { dir, rounds };
}

function firstOfEach(files: CorpusFile[]): CorpusFile[] {
  const seen = new Map<string, CorpusFile>();
  for (const file of files) if (!seen.has(file.language.id)) seen.set(file.language.id, { ...file, source: "" });
  return [...seen.values()];
}

async function main(): Promise<void> {
  const { dir, rounds } = options(process.argv.slice(2));
  const paths = dir ? walk(dir, (path) => codeLanguageForPath(path) !== undefined) : defaultPaths();
  const { files, skipped } = loadCorpus(paths, dir ?? ROOT);
  const lines = files.reduce((sum, file) => sum + file.lines, 0);
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const languages = [...new Set(files.map((file) => file.language.id))].join(", ");
  console.log(`corpus: ${files.length} files (${languages}), ${lines.toLocaleString("en-US")} lines, ${(bytes / 1_048_576).toFixed(2)} MB; ${skipped} over the size guard skipped`);
  const load = await time("load grammars + queries (once)", 1, () => parseOnly(firstOfEach(files)));
  console.log(`${load.label}: ${load.wall.toFixed(3)} s`);
  // Untimed warm-up so the JIT has seen every path before the first timed round.
  await extractAll(files.slice(0, 50));
  const parse = await time("parse only", rounds, () => parseOnly(files));
  const query = await time("parse + query", rounds, () => parseAndQuery(files));
  let counts = { declarations: 0, references: 0 };
  const extract = await time("parse + extract (extractCode)", rounds, async () => {
    counts = await extractAll(files);
  });
  console.log(`best of ${rounds} rounds:`);
  console.log(report(parse, lines, bytes));
  console.log(report(query, lines, bytes, parse));
  console.log(report(extract, lines, bytes, parse));
  console.log(`extracted ${counts.declarations.toLocaleString("en-US")} declarations, ${counts.references.toLocaleString("en-US")} references`);
  const ctags = runCtags(files);
  if (!ctags) {
    console.log("ctags: skipped (universal-ctags is not installed; it should be added to the image for this comparison)");
    return;
  }
  console.log(`${report(ctags.timing, lines, bytes, parse)}  (${ctags.tags.toLocaleString("en-US")} tags)`);
}

await main();
