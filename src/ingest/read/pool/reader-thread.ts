/**
 * The entry of a reader thread: loads the reader list named in its start data
 * once, then reads one file per request (see read-request.ts) and answers the
 * ReadOutput (plain data, so it crosses by structured clone). A reader's error
 * is an answer; a thread that spins or exhausts its heap is stopped by the pool.
 */
import { parentPort, workerData } from "node:worker_threads";
import { answerWith, loadReaders, readRequest } from "./read-request.js";
import type { ThreadAnswer, ThreadData, ThreadRequest } from "./thread-protocol.js";

const port = parentPort;
if (!port) throw new Error("the reader thread runs only inside a worker thread");
const readers = await loadReaders((workerData as ThreadData).readersUrl);
const post = (answer: ThreadAnswer) => port.postMessage(answer);

port.on("message", (request: ThreadRequest) => {
  void readRequest(readers, request).then((answer) => answerWith(post, answer));
});
post({ type: "ready" });
