/**
 * The watchdog of a reader process: a thread of its own, so a reading that
 * holds the process's main thread cannot keep it from running. Twice a
 * second it checks that the parent that started the process is still its
 * parent, and that the reading under way (told by the main thread:
 * "reading", then "idle") is within its wall-clock limit; either failing,
 * it kills the whole process. Its source is plain JavaScript evaluated in
 * the thread, so it runs alike from the build and from the sources.
 */
import { Worker } from "node:worker_threads";

const CHECK_MS = 500;

const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { ppid, limitMs, checkMs } = workerData;
let deadline = Infinity;
parentPort.on("message", (state) => { deadline = state === "reading" ? Date.now() + limitMs : Infinity; });
setInterval(() => {
  if (process.ppid !== ppid || Date.now() > deadline) process.kill(process.pid, "SIGKILL");
}, checkMs);
`;

/** Starts the watchdog; it never keeps the process alive by itself. */
export function startWatchdog(limitMs: number): Worker {
  const worker = new Worker(SOURCE, { eval: true, workerData: { ppid: process.ppid, limitMs, checkMs: CHECK_MS } });
  worker.unref();
  return worker;
}
