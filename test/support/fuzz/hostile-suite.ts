/**
 * The hostile-document suite, shared by the soak run (200 documents a
 * reader family, a random seed) and the default run (a few, a fixed seed):
 * one test per reader family, each asserting that every accepted file ends
 * `ready` or `failed` before the deadline, that nothing answers 5xx and
 * that the probe kept answering; the figures (probe latency, RSS before
 * and after, wall time) are printed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../../tools/index.js";
import { HOSTILE_FORMATS } from "../hostile-documents.js";
import { createTestWorld } from "../test-app.js";
import type { TestWorld } from "../test-app.js";
import { formatHostile, runHostileFamily } from "./hostile-run.js";
import type { HostileStats } from "./hostile-run.js";

/** How a suite runs: seed, documents per family, reading deadline per family, each test's time limit, how to replay. */
export interface HostileSuiteOptions {
  seed: number;
  count: number;
  deadlineMs: number;
  timeoutMs: number;
  replay: string;
  /** Largest document (larger draws are drawn again); default no limit. */
  maxBytes?: number;
  /** The reader threads' time limit per file (`PKS_READ_TIMEOUT_MS`); default the product's. */
  readTimeoutMs?: number;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Defines one test per reader family on a world with a file database (as served), reading with the real worker. */
export function defineHostileFuzz(options: HostileSuiteOptions): void {
  describe(`hostile documents, ${options.count} per reader family`, () => {
    let w: TestWorld;
    let dir: string;
    let rssBefore = 0;
    let started = 0;
    const all: HostileStats[] = [];

    beforeAll(async () => {
      started = performance.now();
      dir = mkdtempSync(join(tmpdir(), "pks-hostile-"));
      w = await createTestWorld({ actions, dbUrl: `file:${join(dir, "pks.db")}`, env: {
          PKS_RATE_LIMIT: "1000000",
          ...(options.readTimeoutMs ? { PKS_READ_TIMEOUT_MS: String(options.readTimeoutMs) } : {}),
        },
      });
      rssBefore = process.memoryUsage().rss;
      const limits = `${options.maxBytes ? `, at most ${options.maxBytes} bytes each` : ""}${options.readTimeoutMs ? `, read time limit ${options.readTimeoutMs} ms` : ""}`;
      console.log(`hostile documents: seed ${options.seed}, ${options.count} per family${limits} (replay: ${options.replay})`);
    });

    afterAll(async () => {
      const rssAfter = process.memoryUsage().rss;
      await w?.close();
      rmSync(dir, { recursive: true, force: true });
      const total = (f: (s: HostileStats) => number) => all.reduce((n, s) => n + f(s), 0);
      console.log(
        `hostile documents summary (seed ${options.seed}): ${all.length} families, ${total((s) => s.documents)} documents, ` +
          `${total((s) => s.ready)} ready, ${total((s) => s.failed)} failed, ${total((s) => s.refused)} refused, stuck ${total((s) => s.stuck)}, ` +
          `5xx ${total((s) => s.fiveXx)}, probe p95 ${Math.max(0, ...all.map((s) => s.p95ProbeMs)).toFixed(0)} ms (worst family), max ${Math.max(0, ...all.map((s) => s.maxProbeMs)).toFixed(0)} ms, ` +
          `RSS ${mib(rssBefore)} → ${mib(rssAfter)}, wall ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    });

    for (const format of HOSTILE_FORMATS) {
      it(format, async () => {
        const stats = await runHostileFamily(w, format, {
          count: options.count,
          seed: options.seed,
          deadlineMs: options.deadlineMs,
          maxBytes: options.maxBytes,
          // A file is stuck when nothing settles for three read limits (a reading under way may take one),
          // and never sooner than a minute: the typing pass after the previous family's batch (200 CSV
          // tables took 17 s at load 17 on 2 cores) holds the queue while it runs.
          stallMs: Math.max(60_000, 3 * (options.readTimeoutMs ?? 60_000)),
        });
        all.push(stats);
        console.log(formatHostile(stats));
        const why = `${format}, seed ${options.seed} (replay: ${options.replay}):\n  ${stats.problems.join("\n  ")}`;
        expect(stats.problems, why).toEqual([]);
        expect(stats.documents).toBe(options.count);
        expect(stats.stuck, why).toBe(0);
        expect(stats.fiveXx, why).toBe(0);
        expect(stats.probes).toBeGreaterThan(0);
      }, options.timeoutMs);
    }
  });
}
