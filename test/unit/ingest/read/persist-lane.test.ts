/**
 * Group commit of readings: readings that arrive while a commit is under way
 * go together in the next transaction, each is acknowledged only by its own
 * commit, a failing reading fails alone, and none is left waiting.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../../src/store/db.js";
import type { Queryable } from "../../../../src/store/db.js";
import { PersistLane } from "../../../../src/ingest/read/persist-lane.js";

async function world() {
  const db = await openDatabase({ url: ":memory:" });
  await db.execute("CREATE TABLE t (v TEXT PRIMARY KEY)");
  const rows = async () => (await db.all<{ v: string }>("SELECT v FROM t ORDER BY v")).map((r) => r.v);
  return { db, rows };
}

const insert = (v: string) => ({ rows: 1, write: async (tx: Queryable) => void (await tx.execute("INSERT INTO t (v) VALUES (?)", [v])) });

describe("PersistLane", () => {
  it("writes readings that wait behind a commit in one transaction, and acknowledges each after its commit", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db);
    const all = Array.from({ length: 50 }, (_, i) => lane.persist(insert(`r${String(i).padStart(2, "0")}`)));
    await Promise.all(all);
    expect(await rows()).toHaveLength(50);
    expect(lane.stats.items).toBe(50);
    expect(lane.stats.commits).toBeLessThan(50);
    db.close();
  });

  it("a failing reading in a batch fails alone; the others are written", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db);
    const results = await Promise.allSettled([lane.persist(insert("a")), lane.persist(insert("b")), lane.persist(insert("b")), lane.persist(insert("c"))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(await rows()).toEqual(["a", "b", "c"]);
    db.close();
  });

  it("commits a transaction once it has written for its time bound, and the rest go first in the next", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db, { holdMs: 20 });
    const slow = (v: string) => ({
      rows: 1,
      write: async (tx: Queryable) => {
        await new Promise((resolve) => setTimeout(resolve, 15));
        await tx.execute("INSERT INTO t (v) VALUES (?)", [v]);
      },
    });
    // All ten wait when the first transaction opens; each transaction passes its bound after two (15 ms each, bound 20 ms).
    await Promise.all(Array.from({ length: 10 }, (_, i) => lane.persist(slow(`s${i}`))));
    expect(await rows()).toHaveLength(10);
    expect(lane.stats.items).toBe(10);
    expect(lane.stats.commits).toBeGreaterThanOrEqual(5);
    db.close();
  });

  it("writes for the longer bulk bound while more readings are on their way", async () => {
    const { db, rows } = await world();
    let under = 10;
    const lane = new PersistLane(db, { holdMs: 20, bulkHoldMs: 5_000, more: () => under > 0, gatherMs: 0 });
    const slow = (v: string) => ({
      rows: 1,
      write: async (tx: Queryable) => {
        await new Promise((resolve) => setTimeout(resolve, 15));
        await tx.execute("INSERT INTO t (v) VALUES (?)", [v]);
        under--;
      },
    });
    // Under the 20 ms bound these ten took five or more transactions (see above); the bulk bound lets one hold them all.
    await Promise.all(Array.from({ length: 10 }, (_, i) => lane.persist(slow(`s${i}`))));
    expect(await rows()).toHaveLength(10);
    expect(lane.stats.commits).toBe(1);
    db.close();
  });

  it("keeps a batch within its row budget", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db, 3);
    await Promise.all(Array.from({ length: 12 }, (_, i) => lane.persist(insert(`x${i}`))));
    expect(await rows()).toHaveLength(12);
    expect(lane.stats.commits).toBeGreaterThanOrEqual(4);
    db.close();
  });

  it("a reading that arrives as a drain ends is still written", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db);
    for (let round = 0; round < 20; round++) {
      const first = lane.persist(insert(`a${round}`));
      // Queued from the first one's acknowledgement, while its drain is finishing.
      const second = first.then(() => lane.persist(insert(`b${round}`)));
      await Promise.all([first, second]);
    }
    expect(await rows()).toHaveLength(40);
    db.close();
  });

  it("waits for readings on their way, up to its window, and commits at once when none is", async () => {
    const { db, rows } = await world();
    let under = 3;
    const lane = new PersistLane(db, { more: () => under > 0, gatherMs: 2000 });
    // Three readings arrive 30 ms apart while others are still on their way: one transaction.
    const done: Array<Promise<void>> = [];
    for (let i = 0; i < 3; i++) {
      under--;
      done.push(lane.persist(insert(`g${i}`)));
      if (under > 0) await new Promise((r) => setTimeout(r, 30));
    }
    await Promise.all(done);
    expect(lane.stats.commits).toBe(1);
    expect(lane.stats.items).toBe(3);

    // Nothing else on its way: written without waiting for the window.
    const start = performance.now();
    await lane.persist(insert("alone"));
    expect(performance.now() - start).toBeLessThan(1000);
    expect(lane.stats.commits).toBe(2);

    // More said to be coming but never arriving: the window ends the wait.
    under = 1;
    const short = new PersistLane(db, { more: () => under > 0, gatherMs: 100 });
    const t = performance.now();
    await short.persist(insert("late"));
    expect(performance.now() - t).toBeGreaterThanOrEqual(90);
    expect(await rows()).toEqual(["alone", "g0", "g1", "g2", "late"]);
    db.close();
  });

  it("counts its window from the previous batch, so a writer that is behind never waits", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db, { more: () => true, gatherMs: 500, bulkHoldMs: 5_000 });
    const start = performance.now();
    // The first batch waits its window (0.5 s) and then writes for 0.55 s: past the window, so the second goes at once.
    const first = lane.persist({ rows: 1, write: async (tx) => { await new Promise((r) => setTimeout(r, 550)); await tx.execute("INSERT INTO t (v) VALUES ('first')"); } });
    await new Promise((r) => setTimeout(r, 600));
    await Promise.all([first, lane.persist(insert("second"))]);
    // Counted from now, the second batch would wait another whole window (past 1.55 s).
    expect(performance.now() - start).toBeLessThan(1_450);
    expect(lane.stats.commits).toBe(2);
    expect(await rows()).toEqual(["first", "second"]);
    db.close();
  });

  it("counts the rows of readings waiting behind a commit, for the reader to stop claiming", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db, 2);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The first batch holds its transaction open until released; the next readings wait behind it.
    const first = lane.persist({ rows: 2, write: async (tx) => { await held; await tx.execute("INSERT INTO t (v) VALUES ('first')"); } });
    await new Promise((r) => setTimeout(r, 10));
    const later = [lane.persist({ rows: 5, write: insert("a").write }), lane.persist({ rows: 7, write: insert("b").write })];
    expect(lane.rowsWaiting()).toBe(12);
    release();
    await Promise.all([first, ...later]);
    expect(lane.rowsWaiting()).toBe(0);
    expect(await rows()).toEqual(["a", "b", "first"]);
    db.close();
  });
});

describe("PersistLane between transactions", () => {
  it("lets the thread's other events run between two transactions (the binding is synchronous: awaits alone never yield)", async () => {
    const { db } = await world();
    const lane = new PersistLane(db, { maxRows: 1 });
    const order: string[] = [];
    const step = (v: string) => ({
      rows: 1,
      write: async (tx: Queryable) => {
        if (v === "a") setImmediate(() => order.push("event"));
        await tx.execute("INSERT INTO t (v) VALUES (?)", [v]);
        order.push(v);
      },
    });
    await Promise.all([lane.persist(step("a")), lane.persist(step("b")), lane.persist(step("c"))]);
    expect(order).toEqual(["a", "event", "b", "c"]);
    db.close();
  });

  it("once closed, refuses the readings not yet begun and every new one; the transaction under way commits", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db, { maxRows: 1 });
    const first = {
      rows: 1,
      write: async (tx: Queryable) => {
        await tx.execute("INSERT INTO t (v) VALUES (?)", ["a"]);
        lane.close();
      },
    };
    const results = await Promise.allSettled([lane.persist(first), lane.persist(insert("b")), lane.persist(insert("c"))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/stopped/);
    await expect(lane.persist(insert("d"))).rejects.toThrow(/stopped/);
    expect(await rows()).toEqual(["a"]);
    expect(lane.rowsWaiting()).toBe(0);
    db.close();
  });
});

describe("PersistLane closed during a transaction", () => {
  it("refuses the readings that transaction's time bound left out, so none is left waiting", async () => {
    const { db, rows } = await world();
    const lane = new PersistLane(db, { holdMs: 5 });
    const slow = (v: string, closes = false) => ({
      rows: 1,
      write: async (tx: Queryable) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await tx.execute("INSERT INTO t (v) VALUES (?)", [v]);
        if (closes) lane.close();
      },
    });
    // One transaction begins with all three; its bound (5 ms) ends it after the first, which closes the lane.
    const results = await Promise.allSettled([lane.persist(slow("a", true)), lane.persist(slow("b")), lane.persist(slow("c"))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(await rows()).toEqual(["a"]);
    db.close();
  });
});
