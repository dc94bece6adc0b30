/**
 * Moves a project from one commit of a git directory to another through
 * the real ingest path: only files whose blob changed are sent again, files
 * that left are retired, and the worker reads everything before it returns.
 */
import { performance } from "node:perf_hooks";
import type { App } from "../../src/app.js";
import { ingestBatch, retirePaths } from "../../src/ingest/accept/ingest-batch.js";
import { blobBytes, treeBlobs } from "./git-tree.js";

/** Files and bytes per ingest call, as folder sync sends them. */
const BATCH_FILES = 200;
const BATCH_BYTES = 8 * 1_048_576;

export interface TreeMove {
  /** Paths sent again or for the first time, and paths retired. */
  changed: string[];
  removed: string[];
  /** The text of each changed path (for baselines that index files themselves). */
  texts: Map<string, string>;
  seconds: number;
}

export class TreeIngest {
  #blobs = new Map<string, string>();

  constructor(
    private readonly app: App,
    private readonly projectId: string,
    private readonly gitDir: string,
    private readonly keep: (path: string) => boolean,
  ) {}

  /** Brings the project to `commit`'s tree (the kept paths only). */
  async moveTo(commit: string): Promise<TreeMove> {
    const start = performance.now();
    const next = treeBlobs(this.gitDir, commit, this.keep);
    const changed = [...next].filter(([path, blob]) => this.#blobs.get(path) !== blob).map(([path]) => path);
    const removed = [...this.#blobs.keys()].filter((path) => !next.has(path));
    const bytes = blobBytes(this.gitDir, [...new Set(changed.map((p) => next.get(p)!))]);
    let batch: Array<{ path: string; bytes: Uint8Array }> = [];
    let size = 0;
    const flush = async () => {
      if (batch.length > 0) await ingestBatch({ projectId: this.projectId }, { files: batch }, this.app.tools);
      this.app.worker.kick();
      batch = [];
      size = 0;
    };
    for (const path of changed) {
      const b = bytes.get(next.get(path)!);
      if (!b) continue;
      if (batch.length >= BATCH_FILES || (size + b.length > BATCH_BYTES && batch.length > 0)) await flush();
      batch.push({ path, bytes: new Uint8Array(b) });
      size += b.length;
    }
    await flush();
    const texts = new Map(changed.flatMap((p) => {
      const b = bytes.get(next.get(p)!);
      return b ? [[p, b.toString("utf8")] as const] : [];
    }));
    await retirePaths({ projectId: this.projectId }, removed, this.app.tools);
    await this.app.worker.whenIdle();
    this.#blobs = next;
    return { changed, removed, texts, seconds: (performance.now() - start) / 1000 };
  }
}
