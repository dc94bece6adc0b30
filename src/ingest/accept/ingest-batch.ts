import { z } from "zod";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import { AppError } from "../../errors.js";
import type { Db } from "../../store/db.js";
import { chunkIdOf, putChunk } from "../../store/files/chunks.js";
import { retireFileDerivations } from "../../store/graph/factions.js";
import { retireFilesByPath, upsertQueuedFile } from "../../store/files/files.js";
import type { FileOrigin } from "../../store/files/files.js";
import { touchLease } from "../../store/files/leases.js";
import { bumpCorpusVersion, corpusVersion } from "../../store/access/projects.js";
import { unindexFile } from "../../store/search/search-index.js";
import { acceptFiles } from "./accept-files.js";
import { normalizePath } from "./normalize-path.js";
import type { IncomingFile, Refusal } from "./accept-files.js";

/** What an ingest call answers: accepted files (queued), refusals with reasons, the lease and the new corpus version. */
export const ingestAnswerSchema = z.object({
  accepted: z.array(z.object({ fileId: z.string(), path: z.string(), status: z.literal("queued") })),
  refused: z.array(z.object({ path: z.string(), reason: z.string() })),
  leaseId: z.string(),
  projectId: z.string(),
  version: z.number().int(),
});
export type IngestAnswer = z.infer<typeof ingestAnswerSchema>;

/**
 * Takes a batch in: checks each file, then in one transaction stores the
 * accepted bytes, queues their file rows (same path, same file id), touches
 * the project's lease and adds one to the corpus version. When this returns,
 * everything accepted is committed; reading happens later, detached.
 */
export async function ingestBatch(
  db: Db,
  scope: Pick<Scope, "projectId">,
  input: { files: readonly IncomingFile[]; intent?: string | undefined; origin?: FileOrigin },
  tools: Pick<Tools, "clock">,
): Promise<IngestAnswer> {
  const { files, intent, origin } = input;
  const { projectId } = scope;
  if (files.length === 0) throw new AppError("no_files");
  const { accepted, refused } = acceptFiles(files);
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    const lease = await touchLease(tx, projectId, intent, now);
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
          origin: origin ?? "api",
          includeSecret: namedWithIncludeSecret(files, f),
        },
        now,
      );
      answer.push({ fileId: row.fileId, path: row.path, status: "queued" });
    }
    const version = answer.length > 0 ? await bumpCorpusVersion(tx, projectId) : await corpusVersion(tx, projectId);
    return { accepted: answer, refused, leaseId: lease.leaseId, projectId, version };
  });
}

/**
 * Whether the call named this accepted file with `includeSecret: true`. The
 * flag is stored with the file because the credential scan runs again on the
 * reading; the accepted file is the incoming one carrying the same bytes
 * object under the same normalised path.
 */
function namedWithIncludeSecret(files: readonly IncomingFile[], accepted: { path: string; bytes: Uint8Array }): boolean {
  for (const f of files) {
    if (f.includeSecret !== true || f.bytes !== accepted.bytes) continue;
    const norm = normalizePath(f.path);
    if (norm.ok && norm.path === accepted.path) return true;
  }
  return false;
}

/** Retires files that left the project (folder sync): their readings go with them. */
export async function retirePaths(
  db: Db,
  scope: Pick<Scope, "projectId">,
  paths: readonly string[],
  tools: Pick<Tools, "clock">,
): Promise<number> {
  const { projectId } = scope;
  if (paths.length === 0) return 0;
  const now = new Date(tools.clock()).toISOString();
  return db.transaction(async (tx) => {
    const ids = await retireFilesByPath(tx, projectId, paths, now);
    for (const id of ids) {
      await retireFileDerivations(tx, id, now);
      await unindexFile(tx, id);
    }
    if (ids.length > 0) await bumpCorpusVersion(tx, projectId);
    return ids.length;
  });
}
