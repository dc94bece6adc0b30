import { z } from "zod";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
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
    /** Every live file: queued, reading, ready and failed; null while the folder's first scan has not listed it. */
    total: z.number().int().nonnegative().nullable(),
  })
  .optional()
  .describe(
    "present only while the folder's first scan runs (total null: not yet known) or files are queued or being read: files ready and " +
      "live files in all; absent when reading is idle",
  );

export type Indexing = NonNullable<z.infer<typeof indexingSchema>>;

/**
 * `{indexing: {ready, total}}` while the project's lease is reading (any
 * file queued or being read), `{}` when idle, to spread into an answer.
 * While the folder's first scan runs, `total` is null: the files counted so
 * far are not all there are, and an answer given then must not look
 * complete. One grouped count of the project's own files, the count the
 * lease read answers with: ancestors' readings are their own leases'.
 */
export async function indexingNote(q: Queryable, scope: Pick<Scope, "projectId">, tools: Pick<Tools, "scans">): Promise<{ indexing?: Indexing }> {
  const counts = await fileStatusCounts(q, scope.projectId);
  if (tools.scans.scanning(scope.projectId)) return { indexing: { ready: counts.ready, total: null } };
  if (counts.queued + counts.reading === 0) return {};
  return { indexing: { ready: counts.ready, total: counts.queued + counts.reading + counts.ready + counts.failed } };
}
