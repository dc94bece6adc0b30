/**
 * The sliding-log limiter against a wall clock that steps: a key refused
 * before the clock stepped back ten minutes is admitted again once the
 * Retry-After it was given has passed, not ten minutes later.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { takeRateSlot } from "../../../src/store/access/rate-events.js";
import { migrate } from "../../../src/store/migrate.js";

describe("rate windows", () => {
  let db: Db;
  const window = { max: 3, windowMs: 60_000 };
  beforeEach(async () => {
    db = await openDatabase({ url: ":memory:" });
    await migrate(db);
  });
  afterEach(() => db.close());

  it("a clock stepped back ten minutes keeps the window one length long", async () => {
    const t = Date.UTC(2026, 5, 1, 12);
    for (let i = 0; i < 3; i++) expect((await takeRateSlot(db, "key:a", t + i * 1000, window)).allowed).toBe(true);
    const refused = await takeRateSlot(db, "key:a", t + 5000, window);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 55 });

    const back = t - 10 * 60_000;
    const stepped = await takeRateSlot(db, "key:a", back, window);
    expect(stepped.allowed).toBe(false);
    const wait = stepped.allowed ? 0 : stepped.retryAfterSeconds;
    expect(wait).toBeLessThanOrEqual(60);
    expect((await takeRateSlot(db, "key:a", back + wait * 1000, window)).allowed).toBe(true);
  });

  it("without a step, the window slides as before", async () => {
    const t = Date.UTC(2026, 5, 1, 12);
    for (let i = 0; i < 3; i++) expect((await takeRateSlot(db, "key:b", t + i * 1000, window)).allowed).toBe(true);
    expect((await takeRateSlot(db, "key:b", t + 59_999, window)).allowed).toBe(false);
    expect((await takeRateSlot(db, "key:b", t + 60_000, window)).allowed).toBe(true);
  });
});
