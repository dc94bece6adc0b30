import type { ServiceDeps } from "../../core/deps.js";
import { AppError } from "../../errors.js";
import { chunkIdOf, putChunk } from "../../store/files/chunks.js";
import { retireFileDerivations } from "../../store/graph/factions.js";
import { retireFilesByPath, upsertQueuedFile } from "../../store/files/files.js";
import type { FileOrigin } from "../../store/files/files.js";
import { touchLease } from "../../store/files/leases.js";
import { bumpCorpusVersion, corpusVersion } from "../../store/access/projects.js";
import { unindexFile } from "../../store/search/search-index.js";
import { acceptFiles } from "./accept-files.js";
import type { IncomingFile, Refusal } from "./accept-files.js";

export interface IngestAnswer {
  accepted: Array<{ fileId: string; path: string; status: "queued" }>;
  refused: Refusal[];
  leaseId: string;
  projectId: string;
  version: number;
}

/**
 * Takes a batch in: checks each file, then in one transaction stores the
 * accepted bytes, queues their file rows (same path, same file id), touches
 * the project's lease and adds one to the corpus version. When this returns,
 * everything accepted is committed; reading happens later, detached.
 */
export async function ingestBatch(
  deps: ServiceDeps,
  projectId: string,
  files: readonly IncomingFile[],
  options: { intent?: string; origin?: FileOrigin } = {},
): Promise<IngestAnswer> {
  if (files.length === 0) throw new AppError("no_files");
  const { accepted, refused } = acceptFiles(files);
  const now = new Date(deps.clock()).toISOString();
  return deps.db.transaction(async (tx) => {
    const lease = await touchLease(tx, projectId, options.intent, now);
    const answer: IngestAnswer["accepted"] = [];
    for (const f of accepted) {
      const chunkId = chunkIdOf(f.bytes);
      await putChunk(tx, projectId, chunkId, f.bytes, now);
      const row = await upsertQueuedFile(
        tx,
        {
          projectId,
          path: f.path,
          contentType: f.contentType,
          fileType: f.fileType,
          fileSize: f.bytes.byteLength,
          chunkId,
          origin: options.origin ?? "api",
        },
        now,
      );
      answer.push({ fileId: row.fileId, path: row.path, status: "queued" });
    }
    const version = answer.length > 0 ? await bumpCorpusVersion(tx, projectId) : await corpusVersion(tx, projectId);
    return { accepted: answer, refused, leaseId: lease.leaseId, projectId, version };
  });
}

/** Retires files that left the project (folder sync): their readings go with them. */
export async function retirePaths(deps: ServiceDeps, projectId: string, paths: readonly string[]): Promise<number> {
  if (paths.length === 0) return 0;
  const now = new Date(deps.clock()).toISOString();
  return deps.db.transaction(async (tx) => {
    const ids = await retireFilesByPath(tx, projectId, paths, now);
    for (const id of ids) {
      await retireFileDerivations(tx, id, now);
      await unindexFile(tx, id);
    }
    if (ids.length > 0) await bumpCorpusVersion(tx, projectId);
    return ids.length;
  });
}
