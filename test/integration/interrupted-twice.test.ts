/**
 * The interrupted-twice rule: a file whose reading is interrupted twice
 * while it is read alone (in a reader process of its own, after a first
 * interruption among others) is `failed` with the reason at the next
 * start, and never queued again. Each "kill" here is a worker that stops
 * holding the database mid-reading and never writes again — as a process
 * killed with SIGKILL leaves it: its claim committed, its file `reading`.
 * The next worker's start is the next server's start.
 */
import { afterEach, describe, expect, it } from "vitest";
import { IngestWorker } from "../../src/ingest/read/ingest-worker.js";
import { INTERRUPTED_TWICE } from "../../src/store/files/files.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

const HOSTILE_READERS = new URL("../fixtures/readers-hostile/hostile-readers.ts", import.meta.url);

interface FileState {
  path: string;
  status: string;
  error: string | null;
  attempts: number;
  isolatedReads: number;
}

async function fileState(w: TestWorld, path: string): Promise<FileState> {
  const row = await w.app.deps.db.get<FileState>(
    "SELECT path, status, error, attempts, isolated_reads AS isolatedReads FROM files WHERE path = ?",
    [path],
  );
  return { ...row!, attempts: Number(row!.attempts), isolatedReads: Number(row!.isolatedReads) };
}

describe("a file interrupted twice while read alone", () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  /** A worker that reads until `kill()`: from then on it holds nothing and writes nothing, and its readers are ended. */
  function killableWorker(w: TestWorld) {
    let alive = true;
    const worker = new IngestWorker({
      db: w.app.deps.db,
      clock: Date.now,
      reading: { threads: 1, heapMb: 256, timeoutMs: 600_000 },
      readersUrl: HOSTILE_READERS,
      holds: async () => alive,
    });
    stops.push(() => worker.stop());
    return {
      worker,
      kill: () => {
        alive = false;
        return worker.stop();
      },
    };
  }

  it("is failed with the reason at the next start; the file read with it is ready", async () => {
    const w = await createTestWorld({ startWorker: false, env: { PKS_RATE_LIMIT: "10000" } });
    stops.push(() => w.close());
    await ingest(w, [fileEntry("spin-forever.md", "# Never\n"), fileEntry("plain.md", "# Plain\n\nRead at once.\n")]);
    for (const claims of [1, 2, 3]) {
      const { worker, kill } = killableWorker(w);
      await worker.start();
      // Reading under way with this many claims; the second and third are read alone, and counted as they begin.
      for (;;) {
        const s = await fileState(w, "spin-forever.md");
        if (s.status === "reading" && s.attempts === claims && s.isolatedReads === claims - 1) break;
        expect(s.status).not.toBe("failed");
        await new Promise((r) => setTimeout(r, 20));
      }
      await kill();
      expect(await fileState(w, "spin-forever.md")).toMatchObject({ status: "reading", attempts: claims, isolatedReads: claims - 1 });
    }
    const { worker } = killableWorker(w);
    await worker.start();
    expect(await fileState(w, "spin-forever.md")).toMatchObject({ status: "failed", error: INTERRUPTED_TWICE, attempts: 0, isolatedReads: 0 });
    await worker.whenIdle();
    expect(await fileState(w, "plain.md")).toMatchObject({ status: "ready" });
    expect(await fileState(w, "spin-forever.md")).toMatchObject({ status: "failed" });
  }, 60_000);
});
