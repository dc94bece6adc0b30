/**
 * The rate limit decided in memory against a wall clock that steps: a key
 * refused before the clock stepped back ten minutes is admitted again once
 * its Retry-After has passed, and windows written to the store come back
 * after a restart, stepped clock included.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RateLimiter } from "../../../src/access/rate-limit.js";
import type { Principal } from "../../../src/access/principal.js";
import { AppError } from "../../../src/errors.js";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { migrate } from "../../../src/store/migrate.js";

const key: Principal = { userId: "usr_a", via: "key", keyId: "key_a", tier: "standard", boundProjectId: null, boundTypeId: null };

/** The Retry-After seconds of a refusal, 0 when admitted. */
function attempt(limiter: RateLimiter): number {
  try {
    limiter.countRequest(key);
    return 0;
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "rate_limited") throw err;
    return Number(err.headers["Retry-After"]);
  }
}

describe("rate limiter in memory", () => {
  let db: Db;
  let now: number;
  const window = { max: 3, windowMs: 60_000 };
  beforeEach(async () => {
    db = await openDatabase({ url: ":memory:" });
    await migrate(db);
    now = Date.UTC(2026, 5, 1, 12);
  });
  afterEach(() => db.close());

  it("a clock stepped back ten minutes keeps the window one length long", async () => {
    const limiter = new RateLimiter(db, window, () => now);
    const t = now;
    for (let i = 0; i < 3; i++) {
      now = t + i * 1000;
      expect(attempt(limiter)).toBe(0);
    }
    now = t + 5000;
    expect(attempt(limiter)).toBe(55);
    now = t - 10 * 60_000;
    const wait = attempt(limiter);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    now += wait * 1000;
    expect(attempt(limiter)).toBe(0);
    await limiter.close();
  });

  it("slides without a step, and a restarted limiter loads the windows written before", async () => {
    const first = new RateLimiter(db, window, () => now);
    const t = now;
    for (let i = 0; i < 3; i++) expect(attempt(first)).toBe(0);
    now = t + 59_999;
    expect(attempt(first)).toBeGreaterThan(0);
    await first.close();
    // A step back before the restart: the loaded requests count from now, not from their future.
    now = t - 10 * 60_000;
    const second = new RateLimiter(db, window, () => now);
    await second.start();
    expect(attempt(second)).toBe(60);
    now += 60_000;
    expect(attempt(second)).toBe(0);
    await second.close();
  });
});
