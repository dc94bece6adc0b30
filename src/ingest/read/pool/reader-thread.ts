/**
 * The entry of a reader thread: loads the reader list named in its start data
 * once, then reads one file per request (see read-request.ts) and answers the
 * ReadOutput (plain data, so it crosses by structured clone). A reader's error
 * is an answer; a thread that spins or exhausts its heap is stopped by the pool.
 * The pool may post the next file before this one is answered (see
 * IN_THREAD_FILES in reader-pool.ts): requests are read one after another, in
 * the order they came, so the answers come in that order too. Before each
 * answer it says how much memory it holds, so the pool can give no more
 * files to a thread that has grown (see RETIRE_MB in reader-pool.ts).
 */
import { getHeapStatistics } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { answerWith, loadReaders, readRequest, relayLogsTo } from "./read-request.js";
import type { ThreadAnswer, ThreadData, ThreadRequest } from "./thread-protocol.js";

const port = parentPort;
if (!port) throw new Error("the reader thread runs only inside a worker thread");
const readers = await loadReaders((workerData as ThreadData).readersUrl);
const post = (answer: ThreadAnswer) => port.postMessage(answer);
relayLogsTo(post);

let tail: Promise<void> = Promise.resolve();
port.on("message", (request: ThreadRequest) => {
  tail = tail.then(async () => {
    const answer = await readRequest(readers, request);
    const heap = getHeapStatistics();
    post({ type: "held", bytes: heap.total_heap_size + heap.external_memory });
    answerWith(post, answer);
  });
});
post({ type: "ready" });
