import type { Clock } from "../../core/tools.js";
import type { Db } from "../../store/db.js";
import { log } from "../../logger.js";
import { readerFor } from "../../readers/index.js";
import type { ReadOutput } from "../../readers/reader.js";
import { getChunkBytes } from "../../store/files/chunks.js";
import { claimQueued, finishReading, requeueInterrupted } from "../../store/files/files.js";
import { reindexFile } from "../../store/search/search-index.js";
import type { FileRow } from "../../store/files/files.js";
import { applyReading } from "./apply-reading.js";

const EMPTY: ReadOutput = { factions: [], cells: [] };
/** Files claimed per transaction. */
const CLAIM_BATCH = 8;

/** What the worker needs: the store and the clock. */
export interface WorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
}

/**
 * Reads queued files, one at a time, inside the server process:
 * `queued → reading → ready | failed`. One file's failure never stops the
 * others; files left `reading` by a stopped process are queued again at
 * start. A reading is persisted only if the file was not replaced meanwhile.
 */
export class IngestWorker {
  readonly #deps: WorkerDeps;
  #running = false;
  #busy = false;
  #wake: (() => void) | undefined;
  #kicked = false;
  #idleWaiters: Array<() => void> = [];
  #loop: Promise<void> | undefined;

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
  }

  /** Re-queues interrupted readings and starts the loop. */
  async start(): Promise<void> {
    if (this.#running) return;
    const n = await requeueInterrupted(this.#deps.db, this.#now());
    if (n > 0) log.info("resuming interrupted readings", { files: n });
    this.#running = true;
    this.#kicked = true;
    this.#loop = this.#run();
  }

  /** Wakes the loop: new files were queued. */
  kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  /** Resolves once no file is queued or being read. */
  whenIdle(): Promise<void> {
    if (!this.#running || (!this.#busy && !this.#kicked)) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    for (const w of this.#idleWaiters.splice(0)) w();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#kicked = false;
      this.#busy = true;
      while (this.#running && (await this.#readBatch())) {
        await new Promise((r) => setImmediate(r));
      }
      this.#busy = false;
      if (!this.#kicked) {
        for (const w of this.#idleWaiters.splice(0)) w();
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          if (this.#kicked || !this.#running) resolve();
        });
        this.#wake = undefined;
      }
    }
  }

  /** Claims a few queued files and reads them one by one; false when the queue is empty. */
  async #readBatch(): Promise<boolean> {
    let files: FileRow[];
    try {
      files = await this.#deps.db.transaction((tx) => claimQueued(tx, this.#now(), CLAIM_BATCH));
    } catch (err) {
      log.error("claiming files failed", { error: err });
      await new Promise((r) => setTimeout(r, 250));
      return true;
    }
    if (files.length === 0) return false;
    for (const file of files) {
      // Claimed files left unread by a stop are queued again at the next start.
      if (!this.#running) break;
      await this.#readOne(file);
      await new Promise((r) => setImmediate(r));
    }
    return true;
  }

  /** Reads one claimed file; a failure marks only that file. */
  async #readOne(file: FileRow): Promise<void> {
    try {
      await this.#read(file);
    } catch (err) {
      const message = err instanceof Error ? err.message.slice(0, 500) : "reading failed";
      log.warn("reading failed", { fileId: file.fileId, path: file.path, error: err });
      await finishReading(this.#deps.db, file.fileId, file.chunkId, { status: "failed", error: message }, this.#now()).catch(() => undefined);
    }
  }

  async #read(file: FileRow): Promise<void> {
    const { db } = this.#deps;
    if (file.readChunkId === file.chunkId) {
      await finishReading(db, file.fileId, file.chunkId, { status: "ready" }, this.#now());
      return;
    }
    const bytes = await getChunkBytes(db, file.projectId, file.chunkId);
    if (!bytes) throw new Error("the file's bytes are missing");
    const reader = readerFor({ path: file.path, contentType: file.contentType });
    const output = reader ? await reader.read({ path: file.path, contentType: file.contentType, bytes }) : EMPTY;
    await db.transaction(async (tx) => {
      const now = this.#now();
      // Claim the finish first: if the file was replaced meanwhile, nothing is written.
      if (!(await finishReading(tx, file.fileId, file.chunkId, { status: "ready" }, now))) return;
      await applyReading(tx, { projectId: file.projectId, fileId: file.fileId }, output, now);
      await reindexFile(tx, file.fileId);
    });
  }

  #now(): string {
    return new Date(this.#deps.clock()).toISOString();
  }
}
