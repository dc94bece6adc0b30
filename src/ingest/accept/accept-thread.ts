/**
 * The entry of the accept thread: runs the CPU part of accepting uploads
 * (base64 decoding, path and credential checks, SHA-256, deflate) for the
 * serving thread, one job at a time, and answers with the bytes moved, not
 * copied (see accept-pool.ts).
 */
import { parentPort, threadId } from "node:worker_threads";
import { acceptAndPack } from "./accept-files.js";
import { packBytes, transferables } from "./accept-jobs.js";
import type { AcceptAnswer, AcceptRequest } from "./accept-jobs.js";

const port = parentPort;
if (!port) throw new Error("the accept thread runs only inside a worker thread");

port.on("message", ({ id, job }: AcceptRequest) => {
  let answer: AcceptAnswer;
  try {
    answer = job.type === "files" ? { id, threadId, acceptance: acceptAndPack(job.files) } : { id, threadId, packed: packBytes(job.bytes) };
  } catch (err) {
    answer = { id, threadId, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer, transferables(answer));
});
