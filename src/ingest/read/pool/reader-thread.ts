/**
 * The entry of a reader thread: loads the reader list named in its start data
 * once, then reads one file per request with the first reader that accepts it
 * and answers the ReadOutput (plain data, so it crosses by structured clone).
 * A reader's error is an answer; a thread that spins or exhausts its heap is
 * stopped by the pool.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Reader, ReaderInput, ReadOutput } from "../../../readers/reader.js";
import type { ThreadAnswer, ThreadData, ThreadRequest } from "./thread-protocol.js";

const EMPTY: ReadOutput = { factions: [], cells: [] };

const port = parentPort;
if (!port) throw new Error("the reader thread runs only inside a worker thread");
const { readersUrl } = workerData as ThreadData;
const { readers } = (await import(readersUrl)) as { readers: readonly Reader[] };

/** Reads one file; any error of the reader becomes a `failed` answer. */
async function read(request: ThreadRequest): Promise<ThreadAnswer> {
  const input: ReaderInput = { path: request.path, contentType: request.contentType, bytes: request.bytes };
  try {
    const reader = readers.find((r) => r.accepts(input));
    return { type: "done", output: reader ? await reader.read(input) : EMPTY };
  } catch (err) {
    return { type: "failed", message: err instanceof Error ? err.message : String(err) };
  }
}

port.on("message", (request: ThreadRequest) => {
  void read(request).then((answer) => {
    try {
      port.postMessage(answer);
    } catch (err) {
      // An output that cannot be cloned (a function, a symbol) is the reader's bug: fail this file only.
      const message = err instanceof Error ? err.message : String(err);
      port.postMessage({ type: "failed", message: `the reading could not be passed back: ${message}` } satisfies ThreadAnswer);
    }
  });
});
port.postMessage({ type: "ready" } satisfies ThreadAnswer);
