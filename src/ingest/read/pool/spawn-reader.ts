/**
 * Starts reader hosts — a thread, or for a suspect file a process — from the
 * compiled build or from the TypeScript sources (vitest, `node --import tsx`):
 * each entry sits beside this module with the same extension, and from
 * sources the host first registers tsx's loader, since neither a worker nor a
 * child inherits the parent's loader — or, in a test run, loads the run's
 * JavaScript copy of the sources instead (see `useThreadBuild`).
 */
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
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

/** The `src/` folder of this tree, as a URL. */
const SRC_ROOT = new URL("../../../", import.meta.url).href;

/** From sources: the JavaScript copy of `src/` that threads and reader processes load (see {@link useThreadBuild}). */
let copyOfSources: string | undefined;

/**
 * From sources only (tests): threads and reader processes load their
 * modules from `folder`, which holds a JavaScript copy of `src/` (config
 * `threadBuild`), instead of registering tsx, whose loader takes seconds to
 * start each of them. A built pks ignores it: its modules are JavaScript.
 */
export function useThreadBuild(folder: string | undefined): void {
  copyOfSources = FROM_SOURCES && folder ? pathToFileURL(`${folder}/src/`).href : undefined;
}

/**
 * Sets V8's old-generation growing factor for every thread of the process
 * (config `heapGrowingPercent`; 0 keeps V8's own). V8 reads the flag at each
 * major collection, so threads already running follow it from their next
 * one, and threads started later from their first.
 */
export function useHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** `url`'s module in the JavaScript copy of the sources, if there is a copy and `url` is one of this tree's sources. */
function inCopy(url: string): string | undefined {
  if (!copyOfSources || !url.startsWith(SRC_ROOT)) return undefined;
  return copyOfSources + url.slice(SRC_ROOT.length).replace(/\.tsx?$/, ".js");
}

/**
 * What a reader host loads: its entry (`reader-thread` or `reader-process`
 * of this tree) and the readers, both from the copy when both have one (a
 * host started from the copy has no tsx loader), else as they are, with
 * `loader` saying whether tsx must be registered first.
 */
function readerHost(name: string, readersUrl: string): { entry: URL; readersUrl: string; loader: boolean } {
  const entry = new URL(`./${name}${EXT}`, import.meta.url);
  const copied = [inCopy(entry.href), inCopy(readersUrl)];
  if (copied[0] && copied[1]) return { entry: new URL(copied[0]), readersUrl: copied[1], loader: false };
  return { entry, readersUrl, loader: FROM_SOURCES };
}

/** A boot module that registers tsx's loader, then loads `entry`, as a URL Worker accepts. */
function withTsx(entry: URL): URL {
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

/**
 * A thread entry module (named with this tree's extension: `.ts` from
 * sources, `.js` built) as a URL Worker accepts: from sources, its
 * JavaScript copy where there is one, or else a boot module that registers
 * tsx's loader first.
 */
export function workerEntryUrl(entry: URL): URL {
  if (!FROM_SOURCES) return entry;
  const copy = inCopy(entry.href);
  return copy ? new URL(copy) : withTsx(entry);
}

/**
 * A new thread running the readers of `readersUrl` under a heap limit. Its
 * stdout goes to the parent's stderr: stdout carries JSON-RPC over stdio, and
 * a reader's library may print.
 */
export function spawnReaderThread(readersUrl: string, heapMb: number): Worker {
  const host = readerHost("reader-thread", readersUrl);
  const workerData: ThreadData = { readersUrl: host.readersUrl };
  const worker = new Worker(host.loader ? withTsx(host.entry) : host.entry, {
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
  const host = readerHost("reader-process", readersUrl);
  const loader = host.loader ? ["--import", import.meta.resolve("tsx")] : [];
  return fork(fileURLToPath(host.entry), [host.readersUrl, String(limitMs)], {
    execArgv: [...loader, `--max-old-space-size=${heapMb}`],
    serialization: "advanced",
    stdio: ["ignore", 2, 2, "ipc"],
  });
}
