/**
 * A parse-only thread of the ingest benchmark: loads every language the
 * files need through pks's own parser (`codeParser`: the grammar packages'
 * WASM under web-tree-sitter, as the code reader uses), says it is ready,
 * then on `go` takes files off a shared counter, reads, decodes and parses
 * each one and frees the tree. No query, no extraction: the floor of what
 * parsing the tree costs.
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { codeLanguageForPath } from "../../src/code/languages.js";
import { codeParser } from "../../src/code/parser-runtime.js";

interface ParseWorkerData {
  paths: string[];
  /** Int32Array over a SharedArrayBuffer: [next file index]. */
  counter: SharedArrayBuffer;
}

const { paths, counter } = workerData as ParseWorkerData;
const next = new Int32Array(counter);
const languages = [...new Set(paths.map((p) => codeLanguageForPath(p)).filter((l) => l !== undefined))];
for (const language of languages) await codeParser.load(language);
parentPort!.postMessage({ ready: true });
parentPort!.once("message", async () => {
  let files = 0;
  let bytes = 0;
  let failed = 0;
  const cpu = process.cpuUsage();
  for (let i = Atomics.add(next, 0, 1); i < paths.length; i = Atomics.add(next, 0, 1)) {
    const path = paths[i]!;
    const buffer = readFileSync(path);
    const loaded = await codeParser.load(codeLanguageForPath(path)!);
    const tree = loaded.parse(buffer.toString("utf8"));
    if (tree) tree.delete();
    else failed++;
    files++;
    bytes += buffer.byteLength;
  }
  const used = process.cpuUsage(cpu);
  parentPort!.postMessage({ done: true, files, bytes, failed, cpuMs: (used.user + used.system) / 1000 });
});
