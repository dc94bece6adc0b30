/**
 * The `document_ingest` task: gets the bytes of a source (a URL fetched
 * through the SSRF-guarded fetcher, a file of the project, or a file of the
 * served folder) and takes them in through the normal ingest pipeline — the
 * same per-file checks and credential scan (`ingestBatch` with one file), the
 * same readers — then waits until the file is read, so that a finished task
 * means its cells can be queried.
 */
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { AppError } from "../errors.js";
import { fetchDocument, MAX_DOCUMENT_BYTES } from "../fetch/fetch-document.js";
import type { FetchOptions } from "../fetch/fetch-document.js";
import { parseFetchUrl } from "../fetch/fetch-url.js";
import type { IncomingFile } from "../ingest/accept/accept-files.js";
import { ingestBatch } from "../ingest/accept/ingest-batch.js";
import { getProject } from "../store/access/projects.js";
import type { Db } from "../store/db.js";
import { EMPTY_CHUNK_ID, chunkIdOf, getChunkBytes } from "../store/files/chunks.js";
import { getFile } from "../store/files/files.js";
import type { FileOrigin } from "../store/files/files.js";
import type { TaskKind, TaskRun } from "../tasks/task-kind.js";
import { parseSource } from "./document-source.js";
import { readServedFile } from "./served-file.js";
import { webPath } from "./web-path.js";
import { scanDecodedText } from "../ingest/secrets/scan-for-secrets.js";

/** The lease's intent for one document: its source, unless the source holds a credential (a token in a URL's query), which is never stored. */
function ingestIntent(source: string): string {
  return scanDecodedText(source) === null ? `document_ingest ${source}`.slice(0, 2000) : "document_ingest";
}

/** The task kind's name: the action that queues it. */
export const DOCUMENT_INGEST = "document_ingest";

/** The input queued with a task (the action's input as is). */
export const documentIngestInput = z.object({ source: z.string().min(1).max(4096) });

/** What a finished task answers. */
export interface DocumentIngestResult {
  fileId: string;
}

/** What the task needs beyond its run: where the served folder is and how fetches are bounded. */
export interface DocumentIngestOptions {
  /** The served folder (`config.root`): paths are read under it, for its own project only. */
  readonly root: string;
  /** The fetcher's allow-list and limits; the task adds its own cancellation signal. */
  readonly fetch: Omit<FetchOptions, "signal">;
  /** How often the task looks whether its file has been read (default 100 ms). */
  readonly pollMs?: number;
}

/** The `document_ingest` kind, bound to the served folder and the fetch policy. */
export function documentIngestKind(options: DocumentIngestOptions): TaskKind {
  return { kind: DOCUMENT_INGEST, run: (task) => runDocumentIngest(task, options) };
}

/** One bytes-in step, as the ingest checks take it. */
interface Document {
  readonly file: IncomingFile & { path: string; bytes: Uint8Array };
  readonly origin: FileOrigin;
}

const STEPS = 3;
const HEARTBEAT_MS = 2000;

/**
 * Runs one task, admitted by the pipeline as the action (the queuing
 * user's live access, checked again through it before the bytes go in):
 * source → bytes → one-file ingest → reading. Every failure is
 * an `AppError` whose message says what was refused and why, so the task's
 * error reads on its own. Running it again (after a restart) stores the same
 * path again, so it leaves one file.
 */
export async function runDocumentIngest(task: TaskRun, options: DocumentIngestOptions): Promise<DocumentIngestResult> {
  const { source } = task.input as z.output<typeof documentIngestInput>;
  await task.progress(0, STEPS);
  const doc = await loadDocument(task, source, options);
  task.signal.throwIfAborted();
  await task.progress(1, STEPS);
  if (doc.file.bytes.byteLength > MAX_DOCUMENT_BYTES) throw new AppError("document_too_large");
  // A fetch can take a while: the access that lets the bytes in is the one at the time they go in.
  await task.recheck();
  await task.tools.storage.assertRoom();
  const answer = await ingestBatch(
    { projectId: task.projectId },
    { files: [doc.file], intent: ingestIntent(source), origin: doc.origin, quotaBytes: task.tools.storage.quotaBytes },
    task.tools,
  );
  const refused = answer.refused[0];
  if (refused) throw new AppError("document_refused", { message: `${doc.file.path} was refused: ${refusalWords(refused.reason)}` });
  const accepted = answer.accepted[0]!;
  task.tools.reading.kick();
  await task.progress(2, STEPS);
  await waitForReading(task, accepted.fileId, doc.file.path, chunkIdOf(doc.file.bytes), options.pollMs ?? 100);
  await task.progress(STEPS, STEPS);
  return { fileId: accepted.fileId };
}

/** The source's bytes, the path they go under, and whose file it becomes. */
async function loadDocument(task: TaskRun, source: string, options: DocumentIngestOptions): Promise<Document> {
  const s = parseSource(source);
  if (s.kind === "url") {
    const url = parseFetchUrl(s.url);
    const fetched = await fetchDocument(url.href, { ...options.fetch, signal: task.signal });
    return { file: { path: webPath(url), bytes: fetched.bytes, contentType: fetched.contentType }, origin: "api" };
  }
  if (s.kind === "file") return projectFile(task.db, task.projectId, s.fileId);
  const project = await getProject(task.db, task.projectId);
  if (!project?.rootPath || resolve(project.rootPath) !== resolve(options.root)) {
    throw new AppError("document_refused", {
      message: `${s.path} is not a URL or a file id, and this project serves no folder to read a path from`,
    });
  }
  const read = await readServedFile(options.root, s.path);
  return { file: { path: read.path, bytes: read.bytes }, origin: "folder" };
}

/**
 * A live file of the project, read again from its stored bytes under its
 * own path, media type, origin and credential consent: the file keeps its
 * id, and a folder file stays the folder's.
 */
async function projectFile(db: Db, projectId: string, fileId: string): Promise<Document> {
  const file = await getFile(db, projectId, fileId);
  const bytes = file && (await getChunkBytes(db, projectId, file.chunkId));
  if (!file || !bytes) throw new AppError("file_not_found", { message: `file not found: ${fileId}` });
  return {
    file: { path: file.path, bytes, contentType: file.contentType, includeSecret: file.includeSecret || undefined },
    origin: file.origin,
  };
}

/**
 * The ingest refusal, minus its advice to name the path with `includeSecret`
 * (this action has no such flag; the ingest endpoint has).
 */
function refusalWords(reason: string): string {
  return reason.replace(/; name this path with includeSecret to read it$/, "; send it to the ingest endpoint with includeSecret to read it anyway");
}

/**
 * Waits until the version this task queued is read. Another version taking
 * the path meanwhile ends the wait (the file id stands); a failed reading
 * fails the task with the reader's reason.
 */
async function waitForReading(task: TaskRun, fileId: string, path: string, chunkId: string, pollMs: number): Promise<void> {
  let lastBeat = Date.now();
  for (;;) {
    task.signal.throwIfAborted();
    const file = await getFile(task.db, task.projectId, fileId);
    if (!file) throw new AppError("document_refused", { message: `${path} was removed before it was read` });
    // A reading refused for a credential drops the bytes: the file then points at the empty chunk.
    const ours = file.chunkId === chunkId || file.chunkId === EMPTY_CHUNK_ID;
    if (!ours || file.status === "ready") return;
    if (file.status === "failed") throw new AppError("document_refused", { message: `${path} could not be read: ${file.error ?? "unknown reason"}` });
    await sleep(pollMs, undefined, { signal: task.signal });
    if (Date.now() - lastBeat >= HEARTBEAT_MS) {
      lastBeat = Date.now();
      await task.progress(2, STEPS);
    }
  }
}
