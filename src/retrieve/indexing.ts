import { z } from "zod";
import type { Scope } from "../core/scope.js";
import type { Queryable } from "../store/db.js";
import { fileStatusCounts } from "../store/files/files.js";

/**
 * How far the project's reading has come, on a retrieval answer given
 * while its lease is reading: an answer then may miss what the files still
 * queued or being read hold, and says so rather than look complete.
 */
export const indexingSchema = z
  .object({
    /** Live files read (status `ready`). */
    ready: z.number().int().nonnegative(),
    /** Every live file: queued, reading, ready and failed. */
    total: z.number().int().nonnegative(),
  })
  .optional()
  .describe("present only while files are queued or being read: files ready and live files in all; absent when reading is idle");

export type Indexing = NonNullable<z.infer<typeof indexingSchema>>;

/**
 * `{indexing: {ready, total}}` while the project's lease is reading (any
 * file queued or being read), `{}` when idle, to spread into an answer.
 * One grouped count of the project's own files, the count the lease read
 * answers with: ancestors' readings are their own leases'.
 */
export async function indexingNote(q: Queryable, scope: Pick<Scope, "projectId">): Promise<{ indexing?: Indexing }> {
  const counts = await fileStatusCounts(q, scope.projectId);
  if (counts.queued + counts.reading === 0) return {};
  return { indexing: { ready: counts.ready, total: counts.queued + counts.reading + counts.ready + counts.failed } };
}
