import type { ServiceDeps } from "../../core/deps.js";
import { fileStatusCounts } from "../../store/files/files.js";
import { getLease, touchLease } from "../../store/files/leases.js";
import { corpusVersion } from "../../store/access/projects.js";

export interface LeaseStatus {
  leaseId: string;
  projectId: string;
  /** `reading` while any file is queued or being read, else `idle`. */
  state: "idle" | "reading";
  version: number;
  files: { queued: number; reading: number; ready: number; failed: number };
  intent: string | null;
  updatedAt: string;
}

/** The project's lease with its live counts (the lease is created on first read). */
export async function leaseStatus(deps: ServiceDeps, projectId: string): Promise<LeaseStatus> {
  const { db } = deps;
  const lease = (await getLease(db, projectId)) ?? (await touchLease(db, projectId, undefined, new Date(deps.clock()).toISOString()));
  const counts = await fileStatusCounts(db, projectId);
  const updatedAt = counts.updatedAt && counts.updatedAt > lease.updatedAt ? counts.updatedAt : lease.updatedAt;
  return {
    leaseId: lease.leaseId,
    projectId,
    state: counts.queued + counts.reading > 0 ? "reading" : "idle",
    version: await corpusVersion(db, projectId),
    files: { queued: counts.queued, reading: counts.reading, ready: counts.ready, failed: counts.failed },
    intent: lease.lastIntent,
    updatedAt,
  };
}
