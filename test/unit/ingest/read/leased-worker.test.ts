/**
 * The writer lease's renewal when the database refuses writes (a full disk,
 * a read-only file): one warning for the outage, not one a second, and one
 * line when renewal works again — after which the lease is taken.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { LeasedWorker, RENEW_MS } from "../../../../src/ingest/read/writer/leased-worker.js";
import type { IngestWorker } from "../../../../src/ingest/read/ingest-worker.js";
import { onLog } from "../../../../src/logger.js";
import type { LogRecord } from "../../../../src/logger.js";
import { openDatabase } from "../../../../src/store/db.js";
import { migrate } from "../../../../src/store/migrate.js";

const root = mkdtempSync(join(tmpdir(), "pks-leased-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("a renewal outage is logged once, its end once, and the lease is taken when writes work again", async () => {
  const db = await openDatabase({ url: `file:${join(root, "pks.db")}` });
  await migrate(db);
  const heard: LogRecord[] = [];
  const stopListening = onLog((r) => {
    if (/writer lease/.test(r.msg)) heard.push(r);
  });
  let started = 0;
  // The worker itself is not under test: what starts once the lease is taken.
  const worker = { start: async () => void started++, stop: async () => undefined, whenIdle: async () => undefined, kick: () => undefined };
  const leased = new LeasedWorker(db, () => worker as unknown as IngestWorker);
  try {
    await db.execute("PRAGMA query_only = 1");
    await leased.start();
    await pause(RENEW_MS * 3.5);
    expect(heard.map((r) => r.msg)).toEqual(["the writer lease could not be renewed; trying again every tick"]);
    expect(leased.holding).toBe(false);
    await db.execute("PRAGMA query_only = 0");
    for (let waited = 0; !leased.holding && waited < 20_000; waited += 50) await pause(50);
    expect(heard.map((r) => r.msg)).toEqual([
      "the writer lease could not be renewed; trying again every tick",
      "the writer lease is renewed again",
      "holding the writer lease",
    ]);
    expect(heard[1]!.failedTicks).toBeGreaterThanOrEqual(3);
    expect(leased.holding).toBe(true);
    expect(started).toBe(1);
  } finally {
    stopListening();
    await leased.stop();
    db.close();
  }
});
