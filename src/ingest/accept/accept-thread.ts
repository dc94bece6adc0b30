/**
 * The entry of the accept thread: runs the CPU part of accepting uploads
 * (a large ingest body's decoding and parse, base64 decoding, path and
 * credential checks, SHA-256, deflate) for the
 * serving thread, one job at a time, and answers with the bytes moved, not
 * copied (see accept-pool.ts).
 */
import { parentPort, threadId } from "node:worker_threads";
import { runJob, transferables } from "./accept-jobs.js";
import type { AcceptRequest } from "./accept-jobs.js";

const port = parentPort;
if (!port) throw new Error("the accept thread runs only inside a worker thread");

port.on("message", ({ id, job }: AcceptRequest) => {
  const answer = runJob(id, threadId, job);
  port.postMessage(answer, transferables(answer));
});
