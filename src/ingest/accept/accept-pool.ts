/**
 * Accepting an upload off the serving thread. Decoding base64, the path and
 * credential checks, SHA-256 and deflate are CPU work proportional to the
 * bytes (a 24 MiB upload held the serving thread for hundreds of
 * milliseconds, and so did each 200-file batch of a folder sync), so a
 * large call runs them in one accept thread of its own while the serving
 * thread answers requests, and the transaction that stores the result runs
 * on the writer thread (`tools.writes`, batch-writes.ts), which the
 * thread's buffers move on to. A small call runs them in place:
 * posting to a thread costs more than checking a few kilobytes, and most
 * calls are small.
 *
 * One thread, started at the first large call and unreferenced, so an idle
 * one keeps no process alive; it runs one job at a time, in the order they
 * came (a folder sync's batches keep their order anyway: each awaits its
 * answer). A thread idle for IDLE_MS ends, giving back its heap (a cold
 * sync stores every file first, then reads for much longer: the thread
 * would sit through the ingest's peak of memory for nothing). A thread that
 * stops (its heap) fails the jobs it held and is started anew for the next.
 */
import { threadId, Worker } from "node:worker_threads";
import { AppError } from "../../errors.js";
import { log } from "../../logger.js";
import { EXT, workerEntryUrl } from "../read/pool/spawn-reader.js";
import { acceptAndPack } from "./accept-files.js";
import type { Acceptance, IncomingFile, PackedFile } from "./accept-files.js";
import { packBytes, transferables } from "./accept-jobs.js";
import type { AcceptAnswer, AcceptJob, AcceptRequest, PackedBytes } from "./accept-jobs.js";

/** A call carrying at most this many bytes (or base64 characters) is accepted in place. */
export const IN_PLACE_BYTES = 64 * 1024;

/** An accept thread with no job for this long ends. */
const IDLE_MS = 2000;

/**
 * Young generation of the accept thread, in MB (as the reader and writer
 * threads have). Without a limit a thread gets V8's default, sized for
 * throughput: a 32 MB new space that a cold sync's batches (base64 text,
 * path checks, deflate output copies) keep full, so each accept thread held
 * 43–76 MB of heap beside the reader and writer through the 1 M tree's
 * store phase, for garbage.
 */
export const ACCEPT_YOUNG_MB = 8;

/**
 * Which thread ran the last accepted call's checks, and the resource limits
 * of the last accept thread started: the tests that hold the checks off the
 * serving thread, and its young generation bounded, read them.
 */
export const lastAccept: { threadId: number; resourceLimits?: Worker["resourceLimits"] } = { threadId };

/**
 * Buffers of an answer that the serving thread holds alone and may move on
 * to the writer thread (`WriteQueue.run`'s transfer) instead of copying
 * them: those an accept thread's answer brought. A call checked in place
 * gives none (its bytes are the caller's, who may still use them).
 */
export interface Movable {
  movable: ArrayBuffer[];
}

/** The per-file checks of an ingest call with each accepted file's chunk id and stored form (see `acceptAndPack`). */
export async function acceptUpload(files: readonly IncomingFile[]): Promise<Acceptance<PackedFile> & Movable> {
  if (weight(files) <= IN_PLACE_BYTES) {
    lastAccept.threadId = threadId;
    return { ...acceptAndPack(files), movable: [] };
  }
  const answer = await pool.run({ type: "files", files });
  if (!("acceptance" in answer)) throw failed(answer);
  return { ...answer.acceptance, movable: transferables(answer) };
}

/**
 * A large ingest call from its body's bytes: the accept thread decodes and
 * parses the JSON, checks it as the pipeline checks a small call's (the
 * same errors: `refusal`), and runs the per-file checks, hashes and
 * deflate, so the serving thread never holds the body as text or objects.
 * The bytes move to the thread, not copied (a structured clone of the
 * decoded files held the serving thread 350–400 ms for a 22 MB call);
 * the caller must not use them after.
 */
export async function acceptIngestBody(bytes: Uint8Array): Promise<{ intent?: string | undefined; accepted: Acceptance<PackedFile> & Movable }> {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  const answer = await pool.run({ type: "body", bytes: own }, [own.buffer as ArrayBuffer]);
  if (!("body" in answer)) throw failed(answer);
  return { intent: answer.body.intent, accepted: { ...answer.body.acceptance, movable: transferables(answer) } };
}

/** A chunk upload's id (SHA-256) and stored form, worked out off the serving thread when large. */
export async function packUpload(bytes: Uint8Array): Promise<PackedBytes & Movable> {
  if (bytes.byteLength <= IN_PLACE_BYTES) {
    lastAccept.threadId = threadId;
    return { ...packBytes(bytes), movable: [] };
  }
  const answer = await pool.run({ type: "bytes", bytes });
  if (!("packed" in answer)) throw failed(answer);
  return { ...answer.packed, movable: transferables(answer) };
}

function weight(files: readonly IncomingFile[]): number {
  let n = 0;
  for (const f of files) n += f.bytes ? f.bytes.byteLength : typeof f.content === "string" ? f.content.length : 0;
  return n;
}

function failed(answer: AcceptAnswer): AppError {
  if ("refusal" in answer) return new AppError(answer.refusal.code, { message: answer.refusal.message });
  const message = "error" in answer ? answer.error : "no answer";
  return new AppError("internal", { cause: new Error(`accepting the upload failed: ${message}`) });
}

class AcceptThread {
  #thread: Worker | undefined;
  #idle: NodeJS.Timeout | undefined;
  #nextId = 0;
  readonly #waiting = new Map<number, { resolve: (a: AcceptAnswer) => void; reject: (e: Error) => void }>();

  /** Posts `job`, moving the buffers of `transfer` to the thread. */
  run(job: AcceptJob, transfer: ArrayBuffer[] = []): Promise<AcceptAnswer> {
    const thread = this.#started();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, {
        resolve: (answer) => {
          lastAccept.threadId = answer.threadId;
          resolve(answer);
        },
        reject,
      });
      clearTimeout(this.#idle);
      if (this.#waiting.size === 1) thread.ref();
      const request: AcceptRequest = { id, job };
      thread.postMessage(request, transfer);
    });
  }

  #started(): Worker {
    if (this.#thread) return this.#thread;
    const thread = new Worker(workerEntryUrl(new URL(`./accept-thread${EXT}`, import.meta.url)), {
      resourceLimits: { maxYoungGenerationSizeMb: ACCEPT_YOUNG_MB },
      stdout: true,
    });
    lastAccept.resourceLimits = thread.resourceLimits;
    thread.stdout.pipe(process.stderr, { end: false });
    thread.unref();
    thread.on("message", (answer: AcceptAnswer) => {
      this.#waiting.get(answer.id)?.resolve(answer);
      this.#waiting.delete(answer.id);
      if (this.#waiting.size > 0) return;
      thread.unref();
      this.#idle = setTimeout(() => void this.#end(thread), IDLE_MS).unref();
    });
    thread.on("error", (error) => log.error("the accept thread failed", { error }));
    thread.on("exit", (code) => this.#stopped(thread, code));
    this.#thread = thread;
    return thread;
  }

  /** Ends an idle thread; the next job starts a new one. */
  async #end(thread: Worker): Promise<void> {
    if (this.#thread !== thread || this.#waiting.size > 0) return;
    this.#thread = undefined;
    await thread.terminate();
  }

  #stopped(thread: Worker, code: number): void {
    if (this.#thread !== thread) return;
    this.#thread = undefined;
    for (const { reject } of this.#waiting.values()) reject(new Error(`the accept thread stopped (code ${code})`));
    this.#waiting.clear();
  }
}

const pool = new AcceptThread();
