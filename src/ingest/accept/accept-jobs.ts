/** The messages between the serving thread and the accept thread, and the work both sides can run. */
import { chunkIdOf, packChunkNow } from "../../store/files/chunks.js";
import type { StoredChunk } from "../../store/files/chunks.js";
import type { Acceptance, IncomingFile, PackedFile } from "./accept-files.js";

/** Uploaded bytes with their chunk id and stored form. */
export interface PackedBytes {
  chunkId: string;
  stored: StoredChunk;
}

export type AcceptJob = { readonly type: "files"; readonly files: readonly IncomingFile[] } | { readonly type: "bytes"; readonly bytes: Uint8Array };

/** A job as posted: the id its answer comes back with. */
export interface AcceptRequest {
  readonly id: number;
  readonly job: AcceptJob;
}

/** One answer per job, with the id it came with and the thread that ran it. */
export type AcceptAnswer = { readonly id: number; readonly threadId: number } & (
  | { readonly acceptance: Acceptance<PackedFile> }
  | { readonly packed: PackedBytes }
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
  if ("acceptance" in answer) for (const f of answer.acceptance.accepted) views.push(f.bytes, f.stored.bytes);
  if ("packed" in answer) views.push(answer.packed.stored.bytes);
  const out = new Set<ArrayBuffer>();
  for (const v of views) {
    if (v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.byteLength >= 64 * 1024) out.add(v.buffer as ArrayBuffer);
  }
  return [...out];
}
