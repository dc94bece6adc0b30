/**
 * `extractCode` throughput with the WASM runtime against the native one
 * (when it loads), on the same files in the same run.
 *
 *   node --import tsx bench/parser-runtimes.ts [DIR] [--rounds N]
 *
 * Without DIR the corpus is TypeScript's own `lib/*.d.ts` plus hono's
 * `dist` JavaScript from node_modules (about 100k lines).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { extractCode } from "../src/code/extract-code.js";
import { CODE_LANGUAGES, codeLanguageForPath } from "../src/code/languages.js";
import { loadNativeParser } from "../src/code/native-parser.js";
import { codeParser, type CodeParser } from "../src/code/parser-runtime.js";
import { walkFiles } from "./lib/walk-files.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Source {
  path: string;
  text: string;
}


function corpus(dir: string | undefined): Source[] {
  const lib = join(ROOT, "node_modules", "typescript", "lib");
  const paths = dir
    ? walkFiles(dir, (path) => codeLanguageForPath(path) !== undefined)
    : [
        ...readdirSync(lib).filter((name) => name.endsWith(".d.ts")).map((name) => join(lib, name)),
        ...walkFiles(join(ROOT, "node_modules", "hono", "dist"), (path) => /\.(js|cjs|mjs)$/.test(path)),
      ];
  return paths.map((path) => ({ path: relative(dir ?? ROOT, path), text: readFileSync(path, "utf8") }));
}

/** Best CPU and wall seconds of `rounds` full passes. */
async function timeRuntime(parser: CodeParser, sources: readonly Source[], rounds: number) {
  for (const source of sources.slice(0, 20)) await extractCode(source.path, source.text, parser);
  let best = { cpu: Number.POSITIVE_INFINITY, wall: Number.POSITIVE_INFINITY };
  for (let round = 0; round < rounds; round++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    for (const source of sources) await extractCode(source.path, source.text, parser);
    const used = process.cpuUsage(cpuStart);
    const cpu = (used.user + used.system) / 1e6;
    if (cpu < best.cpu) best = { cpu, wall: (performance.now() - start) / 1000 };
  }
  return best;
}

function options(argv: string[]): { dir?: string; rounds: number } {
  const roundsAt = argv.indexOf("--rounds");
  const rounds = roundsAt >= 0 ? Math.max(1, Number(argv[roundsAt + 1]) || 3) : 3;
  const dir = argv.find((arg, index) => !arg.startsWith("--") && argv[index - 1] !== "--rounds");
  return dir === undefined ? { rounds } : { dir, rounds };
}

async function main(): Promise<void> {
  const { dir, rounds } = options(process.argv.slice(2));
  const sources = corpus(dir);
  const lines = sources.reduce((sum, s) => sum + s.text.split("\n").length, 0);
  console.log(`corpus: ${sources.length} files, ${lines.toLocaleString("en-US")} lines; best of ${rounds} rounds`);
  const wasm = await timeRuntime(codeParser, sources, rounds);
  const line = (label: string, t: { cpu: number; wall: number }) =>
    `${label.padEnd(8)} ${t.cpu.toFixed(3)} s cpu (${t.wall.toFixed(3)} s wall)  ${Math.round(lines / t.cpu).toLocaleString("en-US")} lines/s`;
  console.log(line("wasm", wasm));
  const native = await loadNativeParser(CODE_LANGUAGES[0]!);
  if ("unavailable" in native) {
    console.log(`native: unavailable (${native.unavailable})`);
    return;
  }
  const fast = await timeRuntime(native.parser, sources, rounds);
  console.log(line("native", fast));
  console.log(`native / wasm: ${(wasm.cpu / fast.cpu).toFixed(2)}× (cpu), ${(wasm.wall / fast.wall).toFixed(2)}× (wall)`);
}

await main();
