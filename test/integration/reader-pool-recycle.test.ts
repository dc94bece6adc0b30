import { afterEach, describe, expect, it } from "vitest";
import { ReaderPool } from "../../src/ingest/read/pool/reader-pool.js";

const THREAD_ID_READERS = new URL("../fixtures/readers-hostile/thread-id-readers.ts", import.meta.url);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A thread that has read much is replaced by a fresh one once idle, so what
 * a cold ingest grew in it does not stay while the server serves; a thread
 * kept busy, or one that read little, stays.
 */
describe("reader pool recycling", () => {
  const pools: ReaderPool[] = [];
  afterEach(async () => {
    for (const p of pools.splice(0)) await p.close();
  });

  const threadOf = async (pool: ReaderPool, name: string, path = `${name}.txt`) => {
    const bytes = new TextEncoder().encode(`${name} ${"x".repeat(100)}`);
    const { output } = await pool.read({ path, contentType: "text/plain", includeSecret: false, load: async () => bytes });
    return output.cells[0]!.text;
  };

  it("replaces a thread past its byte budget after it idled, not while it is kept busy", async () => {
    const pool = new ReaderPool({ threads: 1, heapMb: 256, timeoutMs: 30_000, readersUrl: THREAD_ID_READERS, recycleBytes: 50, recycleFiles: 2, recycleIdleMs: 150 });
    pools.push(pool);
    const first = await threadOf(pool, "a");
    for (let i = 0; i < 5; i++) {
      await sleep(40); // shorter than the idle time: the same thread
      expect(await threadOf(pool, `b${i}`)).toBe(first);
    }
    await sleep(600);
    const later = await threadOf(pool, "c");
    expect(later).toMatch(/^thread \d+$/);
    expect(later).not.toBe(first);
  });

  it("replaces an idle thread past its byte budget at once when asked, before its idle time ran out", async () => {
    const pool = new ReaderPool({ threads: 1, heapMb: 256, timeoutMs: 30_000, readersUrl: THREAD_ID_READERS, recycleBytes: 50, recycleFiles: 2, recycleIdleMs: 60_000 });
    pools.push(pool);
    const first = await threadOf(pool, "a");
    pool.recycleIdle(); // read little: stays
    expect(await threadOf(pool, "b")).toBe(first);
    pool.recycleIdle();
    expect(await threadOf(pool, "c")).not.toBe(first);
  });

  it("keeps a thread under its byte budget", async () => {
    const pool = new ReaderPool({ threads: 1, heapMb: 256, timeoutMs: 30_000, readersUrl: THREAD_ID_READERS, recycleBytes: 1_000_000, recycleIdleMs: 100 });
    pools.push(pool);
    const first = await threadOf(pool, "a");
    await sleep(400);
    expect(await threadOf(pool, "b")).toBe(first);
  });

  it("keeps a thread that re-reads a few files however much it reads (their Markdown parts stay), and replaces one that read many", async () => {
    const pool = new ReaderPool({ threads: 1, heapMb: 256, timeoutMs: 30_000, readersUrl: THREAD_ID_READERS, recycleBytes: 50, recycleFiles: 3, recycleIdleMs: 100 });
    pools.push(pool);
    const first = await threadOf(pool, "a", "long.md");
    for (let i = 0; i < 4; i++) await threadOf(pool, `e${i}`, i % 2 ? "long.md" : "other.md");
    await sleep(400);
    expect(await threadOf(pool, "b", "long.md")).toBe(first);
    await threadOf(pool, "c", "third.md");
    await sleep(400);
    expect(await threadOf(pool, "d", "long.md")).not.toBe(first);
  });

  it("replaces a thread that holds more than its memory bound after a reading, also mid-ingest, and loses no file", async () => {
    const pool = new ReaderPool({ threads: 1, heapMb: 256, timeoutMs: 30_000, readersUrl: THREAD_ID_READERS, retireMb: 1 });
    pools.push(pool);
    const first = await threadOf(pool, "a");
    const second = await threadOf(pool, "b");
    expect(second).toMatch(/^thread \d+$/);
    expect(second).not.toBe(first);
    // Files given at once: those already in the retiring thread are read there, the rest by its replacement.
    const batch = await Promise.all(Array.from({ length: 12 }, (_, i) => threadOf(pool, `c${i}`)));
    expect(batch.every((t) => /^thread \d+$/.test(t))).toBe(true);
    expect(new Set(batch).size).toBeGreaterThan(1);
  });
});
