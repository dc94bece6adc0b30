/**
 * One reading, as a reader thread or a reader process does it: the first
 * reader that accepts the file reads it, and the credential scan runs on the
 * bytes (whatever path they came in by) and on everything the reader produced
 * (decoded Word, PDF, HTML and JSON text). Shared by both hosts so a file is
 * read the same way wherever it runs.
 */
import type { Reader, ReaderInput, ReadOutput } from "../../../readers/reader.js";
import { deriveInReader } from "../derivers/index.js";
import { secretVerdictOnBytes, secretVerdictOnReading } from "../../secrets/secret-verdict.js";
import { factionHash } from "../faction-hash.js";
import { textAtLines } from "../../../store/graph/faction-text.js";
import { onLog, setLogOutput } from "../../../logger.js";
import type { ThreadAnswer, ThreadRequest } from "./thread-protocol.js";

const EMPTY: ReadOutput = { factions: [], cells: [] };

/** The reader list a host runs: the `readers` export of the module at `readersUrl`. */
export async function loadReaders(readersUrl: string): Promise<readonly Reader[]> {
  return ((await import(readersUrl)) as { readers: readonly Reader[] }).readers;
}

/** Reads one file; any error of the reader becomes a `failed` answer, a credential a `refused` one. */
export async function readRequest(readers: readonly Reader[], request: ThreadRequest): Promise<ThreadAnswer> {
  const input: ReaderInput = { path: request.path, contentType: request.contentType, bytes: request.bytes };
  const file = { path: request.path, includeSecret: request.includeSecret };
  try {
    const onBytes = secretVerdictOnBytes(file, request.bytes);
    if (onBytes !== undefined) return { type: "refused", message: onBytes };
    const reader = readers.find((r) => r.accepts(input));
    const output = reader ? await reader.read(input) : EMPTY;
    const onReading = secretVerdictOnReading(file, output);
    if (onReading !== undefined) return { type: "refused", message: onReading };
    const carried = deriveInReader({ path: request.path, bytes: request.bytes, output });
    return { type: "done", output, carried, factionHashes: output.factions.map(factionHash), textAtLines: textAtLines(request.bytes, output.factions) };
  } catch (err) {
    return { type: "failed", message: err instanceof Error ? err.message : String(err) };
  }
}

/** Sends an answer; an output that cannot be cloned (a function, a symbol) is the reader's bug and fails this file only. */
export function answerWith(post: (answer: ThreadAnswer) => void, answer: ThreadAnswer): void {
  try {
    post(answer);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    post({ type: "failed", message: `the reading could not be passed back: ${message}` });
  }
}

/**
 * Hands every record this reader thread or process logs to its pool, and
 * writes none here: a reader has no settings of its own (they are the
 * server's, parsed once), and the pool relays each record where the server
 * writes its own.
 */
export function relayLogsTo(post: (answer: ThreadAnswer) => void): void {
  setLogOutput("silent");
  onLog((record) => post({ type: "log", record }));
}
