import { z } from "zod";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import type { Queryable } from "../../store/db.js";
import { AppError } from "../../errors.js";
import { fileStatusCounts } from "../../store/files/files.js";
import { getLease } from "../../store/files/leases.js";
import { corpusVersion } from "../../store/access/projects.js";

/** The project's ingestion lease with live file counts. */
export const leaseStatusSchema = z.object({
  leaseId: z.string(),
  projectId: z.string(),
  /** `scanning` while the folder's first scan has not listed it, then `reading` while any file is queued or being read, else `idle`. */
  state: z.enum(["idle", "scanning", "reading"]),
  version: z.number().int(),
  files: z.object({ queued: z.number().int(), reading: z.number().int(), ready: z.number().int(), failed: z.number().int() }),
  intent: z.string().nullable(),
  updatedAt: z.string(),
});
export type LeaseStatus = z.infer<typeof leaseStatusSchema>;

/** The project's lease with its live counts. A read: the lease is made with the project (and by migration 0024 for older ones). */
export async function leaseStatus(db: Queryable, scope: Pick<Scope, "projectId">, tools: Pick<Tools, "scans">): Promise<LeaseStatus> {
  const { projectId } = scope;
  const lease = await getLease(db, projectId);
  if (!lease) throw new AppError("not_found");
  const counts = await fileStatusCounts(db, projectId);
  const updatedAt = counts.updatedAt && counts.updatedAt > lease.updatedAt ? counts.updatedAt : lease.updatedAt;
  return {
    leaseId: lease.leaseId,
    projectId,
    state: tools.scans.scanning(projectId) ? "scanning" : counts.queued + counts.reading > 0 ? "reading" : "idle",
    version: await corpusVersion(db, projectId),
    files: { queued: counts.queued, reading: counts.reading, ready: counts.ready, failed: counts.failed },
    intent: lease.lastIntent,
    updatedAt,
  };
}
