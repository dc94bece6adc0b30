import { z } from "zod";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import { AppError } from "../../errors.js";
import type { FileOrigin } from "../../store/files/files.js";
import { acceptUpload } from "./accept-pool.js";
import type { Movable } from "./accept-pool.js";
import type { Acceptance, IncomingFile, PackedFile } from "./accept-files.js";
import { runWrite } from "./batch-writes.js";
import { DEFAULT_PROJECT_QUOTA_BYTES } from "./storage.js";

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
 * accepted bytes, queues their file rows, lists the files refused for their
 * content as failed, touches the project's lease and adds one to the corpus
 * version (`storeBatch` in batch-writes.ts). A batch that would take the
 * project's stored bytes over `quotaBytes` is refused whole (413
 * `quota_exceeded`) and nothing of it is stored. When this returns,
 * everything accepted is committed; reading happens later, detached. The
 * checks, hashes and packing (deflate) run before the transaction, off the
 * serving thread for a large call (accept-pool.ts), and the transaction on
 * the writer thread's connection when there is one (`tools.writes`), so the
 * serving thread neither computes nor commits the bytes.
 */
export async function ingestBatch(
  scope: Pick<Scope, "projectId">,
  input: IngestFiles & { intent?: string | undefined; origin?: FileOrigin; quotaBytes?: number | undefined },
  tools: Pick<Tools, "clock" | "writes">,
): Promise<IngestAnswer> {
  const { intent, origin } = input;
  const { projectId } = scope;
  const { accepted, refused, refusedFiles, movable } = await acceptance(input);
  const quotaBytes = input.quotaBytes ?? DEFAULT_PROJECT_QUOTA_BYTES;
  const batch = { projectId, accepted, refusedFiles, intent, origin: origin ?? "api", quotaBytes, nowMs: tools.clock() };
  const stored = await runWrite(tools.writes, "ingest.store", batch, movable);
  return { accepted: stored.accepted, refused, leaseId: stored.leaseId, projectId, version: stored.version };
}

/** A batch's files as they came, or their verdicts already worked out (a large REST call's, from its body's bytes: `acceptIngestBody`). */
type IngestFiles = { files: readonly IncomingFile[] } | { accepted: Acceptance<PackedFile> & Movable };

async function acceptance(input: IngestFiles): Promise<Acceptance<PackedFile> & Movable> {
  if ("accepted" in input) return input.accepted;
  if (input.files.length === 0) throw new AppError("no_files");
  return acceptUpload(input.files);
}

/**
 * Retires files that left the project (folder sync): their readings go with
 * them (text emptied, search rows removed) and so do their bytes, when no
 * other file shares them.
 */
export async function retirePaths(scope: Pick<Scope, "projectId">, paths: readonly string[], tools: Pick<Tools, "clock" | "writes">): Promise<number> {
  if (paths.length === 0) return 0;
  return runWrite(tools.writes, "ingest.retire", { projectId: scope.projectId, paths, nowMs: tools.clock() });
}
