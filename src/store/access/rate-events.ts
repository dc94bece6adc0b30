import type { Db } from "../db.js";

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
