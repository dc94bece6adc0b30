import { AppError } from "../errors.js";
import { log } from "../logger.js";
import type { Db } from "../store/db.js";
import { takeRateSlot } from "../store/access/rate-events.js";
import type { RateWindow } from "../store/access/rate-events.js";
import type { Principal } from "./principal.js";

/**
 * Counts one request against the caller's sliding window (60 in any rolling
 * minute per key by default). The log lives in the store, so REST, MCP over
 * HTTP and every process on the database share it. Over the limit: 429 with
 * `Retry-After`. A failing limiter store fails closed (503).
 */
export async function countRequest(db: Db, principal: Principal, nowMs: number, window: RateWindow): Promise<void> {
  await countSubject(db, principal.keyId ? `key:${principal.keyId}` : `user:${principal.userId}`, nowMs, window);
}

/**
 * Counts one refused credential (a 401) against the peer's address in the
 * same window: past the limit the refusal becomes 429 with `Retry-After`.
 */
export async function countRefusal(db: Db, address: string, nowMs: number, window: RateWindow): Promise<void> {
  await countSubject(db, `refused:${address}`, nowMs, window);
}

async function countSubject(db: Db, subject: string, nowMs: number, window: RateWindow): Promise<void> {
  let decision;
  try {
    decision = await takeRateSlot(db, subject, nowMs, window);
  } catch (err) {
    log.error("rate limiter unavailable", { error: err });
    throw new AppError("unavailable", { headers: { "Retry-After": "1" } });
  }
  if (!decision.allowed) {
    throw new AppError("rate_limited", { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
  }
}
