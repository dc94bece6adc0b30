/**
 * Starts reader hosts — a thread, or for a suspect file a process — from the
 * compiled build or from the TypeScript sources (vitest, `node --import tsx`):
 * each entry sits beside this module with the same extension, and from
 * sources the host first registers tsx's loader, since neither a worker nor a
 * child inherits the parent's loader.
 */
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ThreadData } from "./thread-protocol.js";

const FROM_SOURCES = import.meta.url.endsWith(".ts");
/** The extension of this tree's modules: `.ts` from sources, `.js` built. */
export const EXT = FROM_SOURCES ? ".ts" : ".js";

/**
 * Young generation of a reader thread, in MB. V8's default for a thread
 * sized its new space for throughput, and a reader's short-lived objects
 * (tokens, syntax nodes) kept it full: with 8 MB a thread of a vuejs/core
 * cold ingest held about 80 MB of RSS instead of about 150 MB, for the same
 * ingest time within this host's noise.
 */
const READER_YOUNG_MB = 8;

/** The product's reader registry, in the same tree (sources or build) as this module. */
export const DEFAULT_READERS_URL = new URL(`../../../readers/index${EXT}`, import.meta.url).href;

/** The entry of a reader thread as a URL Worker accepts. */
function threadEntryUrl(): URL {
  return workerEntryUrl(new URL(`./reader-thread${EXT}`, import.meta.url));
}

/**
 * A thread entry module (named with this tree's extension: `.ts` from
 * sources, `.js` built) as a URL Worker accepts: from sources, a boot
 * module that registers tsx's loader first.
 */
export function workerEntryUrl(entry: URL): URL {
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
  const worker = new Worker(threadEntryUrl(), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: READER_YOUNG_MB },
    stdout: true,
  });
  worker.stdout.pipe(process.stderr, { end: false });
  // Idle threads do not keep the process alive; a reading under way holds its own timer.
  worker.unref();
  return worker;
}

/**
 * A new process running the readers of `readersUrl` under the same heap
 * limit, talking over an IPC channel with advanced serialization (typed
 * arrays cross as they do to a thread). Its stdout and stderr go to the
 * parent's stderr, for the same reason as a thread's. `limitMs` is the
 * process's own limit on one reading, kept even when its parent is gone.
 */
export function spawnReaderProcess(readersUrl: string, heapMb: number, limitMs: number): ChildProcess {
  const entry = fileURLToPath(new URL(`./reader-process${EXT}`, import.meta.url));
  const loader = FROM_SOURCES ? ["--import", import.meta.resolve("tsx")] : [];
  return fork(entry, [readersUrl, String(limitMs)], {
    execArgv: [...loader, `--max-old-space-size=${heapMb}`],
    serialization: "advanced",
    stdio: ["ignore", 2, 2, "ipc"],
  });
}
