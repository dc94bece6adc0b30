/**
 * The entry of a reader thread: loads the reader list named in its start data
 * once, then reads one file per request with the first reader that accepts it
 * and answers the ReadOutput (plain data, so it crosses by structured clone).
 * A reader's error is an answer; a thread that spins or exhausts its heap is
 * stopped by the pool.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Reader, ReaderInput, ReadOutput } from "../../../readers/reader.js";
import { secretVerdictOnBytes, secretVerdictOnReading } from "../../secrets/secret-verdict.js";
import type { ThreadAnswer, ThreadData, ThreadRequest } from "./thread-protocol.js";

const EMPTY: ReadOutput = { factions: [], cells: [] };

const port = parentPort;
if (!port) throw new Error("the reader thread runs only inside a worker thread");
const { readersUrl } = workerData as ThreadData;
const { readers } = (await import(readersUrl)) as { readers: readonly Reader[] };

/**
 * Reads one file; any error of the reader becomes a `failed` answer. The
 * credential scan runs here on the bytes (whatever path they came in by) and
 * on everything the reader produced (decoded Word, PDF, HTML and JSON text):
 * a hit is a `refused` answer.
 */
async function read(request: ThreadRequest): Promise<ThreadAnswer> {
  const input: ReaderInput = { path: request.path, contentType: request.contentType, bytes: request.bytes };
  const file = { path: request.path, includeSecret: request.includeSecret };
  try {
    const onBytes = secretVerdictOnBytes(file, request.bytes);
    if (onBytes !== undefined) return { type: "refused", message: onBytes };
    const reader = readers.find((r) => r.accepts(input));
    const output = reader ? await reader.read(input) : EMPTY;
    const onReading = secretVerdictOnReading(file, output);
    return onReading !== undefined ? { type: "refused", message: onReading } : { type: "done", output };
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
