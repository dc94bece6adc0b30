/** The messages between the serving thread and the accept thread, and the work both sides can run. */
import { chunkIdOf, packChunkNow } from "../../store/files/chunks.js";
import type { StoredChunk } from "../../store/files/chunks.js";
import type { ErrorCode } from "../../errors.js";
import { AppError } from "../../errors.js";
import { acceptAndPack } from "./accept-files.js";
import type { Acceptance, IncomingFile, PackedFile } from "./accept-files.js";
import { parseIngestBody } from "./ingest-body.js";

/** Uploaded bytes with their chunk id and stored form. */
export interface PackedBytes {
  chunkId: string;
  stored: StoredChunk;
}

/** `body`: an ingest call's JSON body as it came, parsed and checked in the thread (ingest-body.ts). */
export type AcceptJob =
  | { readonly type: "files"; readonly files: readonly IncomingFile[] }
  | { readonly type: "bytes"; readonly bytes: Uint8Array }
  | { readonly type: "body"; readonly bytes: Uint8Array };

/** An ingest body accepted from its bytes: its intent and its files' verdicts. */
export interface AcceptedBody {
  intent?: string | undefined;
  acceptance: Acceptance<PackedFile>;
}

/** A job as posted: the id its answer comes back with. */
export interface AcceptRequest {
  readonly id: number;
  readonly job: AcceptJob;
}

/** One answer per job, with the id it came with and the thread that ran it. */
export type AcceptAnswer = { readonly id: number; readonly threadId: number } & (
  | { readonly acceptance: Acceptance<PackedFile> }
  | { readonly packed: PackedBytes }
  | { readonly body: AcceptedBody }
  /** the body was refused: the error the serving thread answers, as it would have for a small call */
  | { readonly refusal: { readonly code: ErrorCode; readonly message: string } }
  | { readonly error: string }
);

/** A chunk upload's id and stored form. */
export function packBytes(bytes: Uint8Array): PackedBytes {
  return { chunkId: chunkIdOf(bytes), stored: packChunkNow(bytes) };
}

/**
 * Buffers an answer may move instead of copying: those its views cover
 * whole and that are too large to come from Node's shared pool of small
 * buffers (moving a pooled one would take its neighbours with it).
 */
export function transferables(answer: AcceptAnswer): ArrayBuffer[] {
  const views: Uint8Array[] = [];
  const acceptance = "acceptance" in answer ? answer.acceptance : "body" in answer ? answer.body.acceptance : undefined;
  if (acceptance) for (const f of acceptance.accepted) views.push(f.bytes, f.stored.bytes);
  if ("packed" in answer) views.push(answer.packed.stored.bytes);
  const out = new Set<ArrayBuffer>();
  for (const v of views) {
    if (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.byteLength >= 64 * 1024) out.add(v.buffer as ArrayBuffer);
  }
  return [...out];
}

/**
 * Runs one job where it is (the accept thread's loop): a refusal of the
 * body comes back as its code and message, anything else thrown as an error.
 */
export function runJob(id: number, threadId: number, job: AcceptJob): AcceptAnswer {
  try {
    if (job.type === "files") return { id, threadId, acceptance: acceptAndPack(job.files) };
    if (job.type === "bytes") return { id, threadId, packed: packBytes(job.bytes) };
    const { files, intent } = parseIngestBody(job.bytes);
    return { id, threadId, body: { intent, acceptance: acceptAndPack(files) } };
  } catch (err) {
    if (err instanceof AppError) return { id, threadId, refusal: { code: err.code, message: err.message } };
    return { id, threadId, error: err instanceof Error ? err.message : String(err) };
  }
}
