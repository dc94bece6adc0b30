import { afterEach, describe, expect, it } from "vitest";
import { ReaderPool } from "../../src/ingest/read/pool/reader-pool.js";
import { onLog } from "../../src/logger.js";
import type { LogRecord } from "../../src/logger.js";

const LOGGING_READERS = new URL("../fixtures/readers-hostile/logging-readers.ts", import.meta.url);

/**
 * A reader thread or process writes no log of its own: its records reach the
 * thread that runs the pool, where `PKS_LOG` was applied and listeners (MCP
 * sessions) hear them.
 */
describe("reader pool: what a reader logs reaches the pool's thread", () => {
  const stops: Array<() => unknown> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  it("relays a reader thread's record and an isolated reader process's record, each once", async () => {
    const heard: LogRecord[] = [];
    stops.push(onLog((record) => heard.push(record)));
    const pool = new ReaderPool({ threads: 1, heapMb: 256, timeoutMs: 30_000, readersUrl: LOGGING_READERS });
    stops.push(() => pool.close());
    const bytes = () => Promise.resolve(new TextEncoder().encode("some text"));
    await pool.read({ path: "in-thread.txt", contentType: "text/plain", includeSecret: false, load: bytes });
    await pool.read({ path: "in-process.txt", contentType: "text/plain", includeSecret: false, load: bytes }, { isolated: true });
    const paths = heard.filter((r) => r.msg === "fixture reader read a file").map((r) => r.path);
    expect(paths).toEqual(["in-thread.txt", "in-process.txt"]);
  });
});
