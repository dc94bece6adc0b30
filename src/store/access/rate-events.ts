import type { Db, Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

export interface RateWindow {
  max: number;
  windowMs: number;
}

/**
 * Sliding-log limiter: in one write transaction, forgets events older than
 * the window, counts the rest, and records this one only if under `max`.
 * Kept in the database so every process on it shares the count. Events
 * later than `nowMs` (the wall clock stepped back) are pulled back to it.
 */
export async function takeRateSlot(db: Db, subject: string, nowMs: number, w: RateWindow): Promise<RateDecision> {
  return db.transaction(async (tx) => {
    const since = nowMs - w.windowMs;
    await tx.execute("DELETE FROM rate_events WHERE subject = ? AND at_ms <= ?", [subject, since]);
    // After the clock steps back, events "from the future" would hold the window shut for as long as the step:
    // they count as happening now instead, so the window lasts one length at most, as its Retry-After says.
    await tx.execute("UPDATE rate_events SET at_ms = ? WHERE subject = ? AND at_ms > ?", [nowMs, subject, nowMs]);
    const row = await tx.get<{ n: number; oldest: number | null }>(
      "SELECT count(*) AS n, min(at_ms) AS oldest FROM rate_events WHERE subject = ?",
      [subject],
    );
    const count = Number(row?.n ?? 0);
    if (count >= w.max) {
      const oldest = Number(row?.oldest ?? nowMs);
      const waitMs = oldest + w.windowMs - nowMs;
      return { allowed: false, retryAfterSeconds: Math.min(Math.max(1, Math.ceil(waitMs / 1000)), Math.ceil(w.windowMs / 1000)) };
    }
    await tx.execute("INSERT INTO rate_events (subject, at_ms) VALUES (?, ?)", [subject, nowMs]);
    return { allowed: true, remaining: w.max - count - 1 };
  });
}

/** One request a process counted: its window's subject and when. */
export interface RateEvent {
  readonly subject: string;
  readonly atMs: number;
}

/** Writes a batch of counted requests under the counting process's `origin`. */
export async function recordRateEvents(q: Queryable, origin: string, events: readonly RateEvent[]): Promise<void> {
  await insertRows(q, "rate_events", ["subject", "at_ms", "origin"], events.map((e) => [e.subject, e.atMs, origin]));
}

/**
 * Forgets batched requests that left every window, and pulls those "from the
 * future" (the wall clock stepped back) back to `nowMs`, so they leave the
 * window one length from now. Slots taken in one transaction (origin '') keep
 * their own windows and are left alone.
 */
export async function pruneRateEvents(q: Queryable, nowMs: number, windowMs: number): Promise<void> {
  await q.execute("DELETE FROM rate_events WHERE origin <> '' AND at_ms <= ?", [nowMs - windowMs]);
  await q.execute("UPDATE rate_events SET at_ms = ? WHERE origin <> '' AND at_ms > ?", [nowMs, nowMs]);
}

/**
 * The requests other processes counted since `sinceMs`, for the given
 * subjects (every subject when `subjects` is undefined), oldest first.
 */
export async function peerRateEvents(
  q: Queryable,
  origin: string,
  sinceMs: number,
  subjects?: readonly string[],
): Promise<RateEvent[]> {
  if (subjects?.length === 0) return [];
  const only = subjects ? ` AND subject IN (${placeholders(subjects.length)})` : "";
  const rows = await q.all<{ subject: string; at_ms: number }>(
    `SELECT subject, at_ms FROM rate_events WHERE origin NOT IN ('', ?) AND at_ms > ?${only} ORDER BY at_ms`,
    [origin, sinceMs, ...(subjects ?? [])],
  );
  return rows.map((r) => ({ subject: r.subject, atMs: Number(r.at_ms) }));
}

/** A batch of requests one process counted, as a write job takes it (plain data: it may cross to the writer thread). */
export interface RateBatch {
  readonly origin: string;
  readonly events: readonly RateEvent[];
  readonly nowMs: number;
  readonly windowMs: number;
}

/** Writes a batch and forgets what left every window, in one transaction. */
export function writeRateBatch(db: Db, batch: RateBatch): Promise<void> {
  return db.transaction(async (tx) => {
    await recordRateEvents(tx, batch.origin, batch.events);
    await pruneRateEvents(tx, batch.nowMs, batch.windowMs);
  });
}
