/**
 * Starts one reader thread, from the compiled build or from the TypeScript
 * sources (vitest, `node --import tsx`): the entry sits beside this module with
 * the same extension, and from sources the thread first registers tsx's
 * loader, since a worker does not inherit the parent's loader.
 */
import { Worker } from "node:worker_threads";
import type { ThreadData } from "./thread-protocol.js";

const FROM_SOURCES = import.meta.url.endsWith(".ts");
const EXT = FROM_SOURCES ? ".ts" : ".js";

/** The product's reader registry, in the same tree (sources or build) as this module. */
export const DEFAULT_READERS_URL = new URL(`../../../readers/index${EXT}`, import.meta.url).href;

/** The entry of a reader thread as a URL Worker accepts. */
function entryUrl(): URL {
  const entry = new URL(`./reader-thread${EXT}`, import.meta.url);
  if (!FROM_SOURCES) return entry;
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

/**
 * A new thread running the readers of `readersUrl` under a heap limit. Its
 * stdout goes to the parent's stderr: stdout carries JSON-RPC over stdio, and
 * a reader's library may print.
 */
export function spawnReaderThread(readersUrl: string, heapMb: number): Worker {
  const workerData: ThreadData = { readersUrl };
  const worker = new Worker(entryUrl(), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    stdout: true,
  });
  worker.stdout.pipe(process.stderr, { end: false });
  // Idle threads do not keep the process alive; a reading under way holds its own timer.
  worker.unref();
  return worker;
}
