import { classifyFile, defaultContentType } from "./media-types.js";
import type { FileType } from "./media-types.js";
import { normalizePath } from "./normalize-path.js";
import { scanDecodedText, scanForSecrets } from "../secrets/scan-for-secrets.js";
import { chunkIdOf, packChunkNow } from "../../store/files/chunks.js";
import type { StoredChunk } from "../../store/files/chunks.js";

/**
 * One file as a caller hands it over: its bytes, or `content` as it came
 * over the wire (base64, decoded with the other per-file checks, off the
 * serving thread for a large upload: see accept-pool.ts).
 */
export interface IncomingFile {
  path: unknown;
  bytes?: Uint8Array | undefined;
  /** The base64 text of the bytes, when `bytes` is not given. */
  content?: unknown;
  /** Why the bytes could not be had (e.g. bad base64), when `bytes` is undefined. */
  bytesProblem?: string;
  contentType?: unknown;
  includeSecret?: unknown;
}

/** A file that passed every per-file check. */
export interface AcceptedFile {
  path: string;
  bytes: Uint8Array;
  contentType: string;
  fileType: FileType;
  /** The caller named this file with `includeSecret: true` (kept: the reading is scanned again). */
  includeSecret: boolean;
}

/** An accepted file ready to store: its chunk id and its stored (maybe deflated) form worked out. */
export interface PackedFile extends AcceptedFile {
  chunkId: string;
  stored: StoredChunk;
}

/** What the per-file checks of an ingest call decided (see `acceptFiles`). */
export interface Acceptance<F extends AcceptedFile = AcceptedFile> {
  accepted: F[];
  refused: Refusal[];
  refusedFiles: RefusedFile[];
}

export interface Refusal {
  path: string;
  reason: string;
}

/**
 * A file refused for what it holds (credential-shaped bytes) rather than
 * for how it was sent: it has a project path, so the project lists it as
 * failed with the reason instead of leaving it out unseen.
 */
export interface RefusedFile {
  path: string;
  contentType: string;
  fileType: FileType;
  reason: string;
}

/**
 * The per-file checks of an ingest call: path, bytes, media type, and the
 * credential scan. A refusal names the path and why; it never stops the rest.
 * `refusedFiles` are the refusals for content, each once per path.
 */
export function acceptFiles(files: readonly IncomingFile[]): Acceptance {
  const accepted: AcceptedFile[] = [];
  const refused: Refusal[] = [];
  const refusedFiles: RefusedFile[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const shownPath = typeof f.path === "string" ? f.path : "";
    const verdict = checkFile(f);
    if ("reason" in verdict) {
      refused.push({ path: shownPath, reason: verdict.reason });
      if (verdict.file && !seen.has(verdict.file.path)) {
        seen.add(verdict.file.path);
        refusedFiles.push(verdict.file);
      }
    } else if (seen.has(verdict.path)) {
      refused.push({ path: shownPath, reason: "path appears more than once in this call" });
    } else {
      seen.add(verdict.path);
      accepted.push(verdict);
    }
  }
  return { accepted, refused, refusedFiles };
}

function checkFile(f: IncomingFile): AcceptedFile | { reason: string; file?: RefusedFile } {
  const norm = normalizePath(f.path);
  if (!norm.ok) return { reason: norm.reason };
  // A path is listed and shown everywhere the file is, includeSecret or not: a credential in it is never stored.
  const inPath = scanDecodedText(norm.path);
  if (inPath) return { reason: `path looks like a credential (rule ${inPath.rule}); rename the file` };
  const got = f.bytes ? { bytes: f.bytes } : f.content !== undefined ? decodeBase64(f.content) : { problem: f.bytesProblem ?? "content is missing" };
  if ("problem" in got) return { reason: got.problem };
  const { bytes } = got;
  if (f.contentType !== undefined && (typeof f.contentType !== "string" || !/^[\w.+-]+\/[\w.+-]+/.test(f.contentType))) {
    return { reason: "contentType is not a media type" };
  }
  if (f.includeSecret !== undefined && typeof f.includeSecret !== "boolean") return { reason: "includeSecret must be a boolean" };
  if (f.includeSecret !== true) {
    const finding = scanForSecrets(norm.path, bytes);
    if (finding) {
      const where = finding.line > 0 ? `, line ${finding.line}` : "";
      const reason = `looks like a credential (rule ${finding.rule}${where}); name this path with includeSecret to read it`;
      const contentType = contentTypeOf(f, norm.path);
      return { reason, file: { path: norm.path, contentType, fileType: classifyFile(norm.path, contentType, bytes), reason } };
    }
  }
  const contentType = contentTypeOf(f, norm.path);
  return { path: norm.path, bytes, contentType, fileType: classifyFile(norm.path, contentType, bytes), includeSecret: f.includeSecret === true };
}

/**
 * The per-file checks, then each accepted file's chunk id (SHA-256) and
 * stored form (deflated): all the CPU an ingest call costs before its
 * transaction, in one pure step a thread can run (accept-pool.ts).
 */
export function acceptAndPack(files: readonly IncomingFile[]): Acceptance<PackedFile> {
  const { accepted, refused, refusedFiles } = acceptFiles(files);
  return { accepted: accepted.map((f) => ({ ...f, chunkId: chunkIdOf(f.bytes), stored: packChunkNow(f.bytes) })), refused, refusedFiles };
}

/** The declared media type, lower-cased, or the one the path's extension implies. */
function contentTypeOf(f: IncomingFile, path: string): string {
  return typeof f.contentType === "string" ? f.contentType.toLowerCase() : defaultContentType(path);
}

/** Strict base64 (standard or URL-safe alphabet, optional padding). */
export function decodeBase64(content: unknown): { bytes: Uint8Array } | { problem: string } {
  if (typeof content !== "string") return { problem: "content is missing" };
  const compact = content.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.replace(/=+$/, "").length % 4 === 1) {
    return { problem: "content is not valid base64" };
  }
  return { bytes: new Uint8Array(Buffer.from(compact, compact.includes("-") || compact.includes("_") ? "base64url" : "base64")) };
}
