/**
 * The parse-only baseline: the same code files parsed by pks's tree-sitter
 * runtime on `threads` worker threads (all cores by default), nothing else.
 */
import { performance } from "node:perf_hooks";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

export interface ParseOnlyResult {
  threads: number;
  ms: number;
  /** CPU of the parse loops, summed over threads. */
  cpuMs: number;
  files: number;
  bytes: number;
  failed: number;
}

const FROM_SOURCES = import.meta.url.endsWith(".ts");

/** A Worker entry for `parse-worker`: from sources, tsx's loader is registered first (a worker does not inherit it). */
function workerEntry(): URL {
  const entry = new URL(`./parse-worker${FROM_SOURCES ? ".ts" : ".js"}`, import.meta.url);
  if (!FROM_SOURCES) return entry;
  const tsx = import.meta.resolve("tsx/esm/api");
  return new URL(`data:text/javascript,${encodeURIComponent(`const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry.href)});`)}`);
}

/**
 * Parses `paths` (absolute, each a file pks parses as code) once over
 * `threads` threads sharing one work counter. The clock starts once every
 * thread has loaded its grammars and stops when the last thread is done.
 */
export async function parseOnly(paths: readonly string[], threads = availableParallelism()): Promise<ParseOnlyResult> {
  const counter = new SharedArrayBuffer(4);
  const workers = Array.from({ length: threads }, () => new Worker(workerEntry(), { workerData: { paths, counter } }));
  try {
    const message = (w: Worker) =>
      new Promise<Record<string, number | boolean>>((resolve, reject) => {
        w.once("message", resolve);
        w.once("error", reject);
      });
    await Promise.all(workers.map(message));
    const start = performance.now();
    const done = workers.map(message);
    for (const w of workers) w.postMessage("go");
    const answers = await Promise.all(done);
    const ms = performance.now() - start;
    const sum = (key: string) => answers.reduce((s, a) => s + Number(a[key] ?? 0), 0);
    return { threads, ms, cpuMs: sum("cpuMs"), files: sum("files"), bytes: sum("bytes"), failed: sum("failed") };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
