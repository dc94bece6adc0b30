import type { Queryable } from "../db.js";

/**
 * Takes the writer lease for `holder`, or renews it, until `nowMs + termMs`:
 * one statement, so two processes never both hold it. Answers whether
 * `holder` holds it now (it does not while another holder's term runs).
 */
export async function takeWriterLease(q: Queryable, holder: string, nowMs: number, termMs: number): Promise<boolean> {
  const r = await q.execute(
    `INSERT INTO writer_lease (lease, holder, expires_at) VALUES (1, ?, ?)
     ON CONFLICT (lease) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE writer_lease.holder = excluded.holder OR writer_lease.expires_at < ?`,
    [holder, nowMs + termMs, nowMs],
  );
  return r.rowsAffected > 0;
}

/**
 * Whether the lease row names `holder`, asked inside a writer's transaction
 * before it claims or commits. Its term is not asked: the term lets another
 * process take the lease, and one that did has put its own name in the row,
 * which this transaction (holding the write lock) sees. A holder whose term
 * ran out because its renewal came late (its thread was busy with a long
 * commit) and that no one replaced is still the only writer, and goes on:
 * refusing it made the claim find "nothing to claim" — the worker reported
 * idle with files queued — and threw readings away, leaving their files
 * `reading` until a restart.
 */
export async function holdsWriterLease(q: Queryable, holder: string): Promise<boolean> {
  return (await q.get("SELECT 1 FROM writer_lease WHERE lease = 1 AND holder = ?", [holder])) !== undefined;
}

/** Gives the lease up (a clean stop): another process takes it at its next try. */
export async function releaseWriterLease(q: Queryable, holder: string): Promise<void> {
  await q.execute("DELETE FROM writer_lease WHERE lease = 1 AND holder = ?", [holder]);
}

/** Whether any file of any project is queued or being read. */
export async function readingPending(q: Queryable): Promise<boolean> {
  return (await q.get("SELECT 1 FROM files WHERE status IN ('queued', 'reading') LIMIT 1")) !== undefined;
}
