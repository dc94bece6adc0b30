/**
 * The endpoint fuzz suite, shared by the soak run (500 runs a target, a
 * random seed) and the default run (a few runs, a fixed seed): one test per
 * REST endpoint, per action through `POST /v1/api/actions` and per action
 * over MCP, each asserting no 5xx, no crash, no envelope or leak problem and
 * no store change across refusals, and printing its figures.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, describe, expect, it } from "vitest";
import { connectMcpClient } from "../mcp-client.js";
import type { TestWorld } from "../test-app.js";
import { createFuzzWorld } from "./fuzz-world.js";
import type { KnownIds } from "./fuzz-world.js";
import { dispatchRequests, endpointRequests, toolCalls } from "./requests.js";
import { drawn, formatStats, fuzzHttp, fuzzMcp, problemReport, seedFor } from "./run-fuzz.js";
import type { FuzzStats } from "./run-fuzz.js";

/** How a suite runs: its seed, runs per target, how to replay it, and each test's time limit. */
export interface EndpointSuiteOptions {
  seed: number;
  runs: number;
  replay: string;
  timeoutMs: number;
}

/** Defines the suite; the world is built while the file is collected (its endpoint list names the tests). */
export async function defineEndpointFuzz(options: EndpointSuiteOptions): Promise<void> {
  const { seed, runs, replay } = options;
  const started = performance.now();
  const world: { w: TestWorld; ids: KnownIds } = await createFuzzWorld();
  const { w, ids } = world;
  const client: Client = await connectMcpClient(w, { key: w.keys.owner });
  const all: FuzzStats[] = [];
  console.log(`endpoint fuzz: seed ${seed}, ${runs} runs per target (replay: ${replay})`);

  const check = (stats: FuzzStats) => {
    all.push(stats);
    console.log(formatStats(stats));
    expect(stats.runs).toBe(runs);
    expect(stats.problems, problemReport(stats, seedFor(seed, stats.target), replay)).toEqual([]);
    expect(stats.fiveXx).toBe(0);
    expect(stats.crashes).toBe(0);
    expect(stats.digestChanges).toBe(0);
  };

  describe("endpoint fuzz", () => {
    afterAll(async () => {
      await client.close();
      await w.close();
      const total = (f: (s: FuzzStats) => number) => all.reduce((n, s) => n + f(s), 0);
      const slowest = all.reduce<FuzzStats | undefined>((m, s) => (!m || s.maxLatencyMs > m.maxLatencyMs ? s : m), undefined);
      console.log(
        `endpoint fuzz summary (seed ${seed}): ${all.length} targets, ${total((s) => s.runs)} runs, ` +
          `5xx ${total((s) => s.fiveXx)}, crashes ${total((s) => s.crashes)}, ` +
          `digest changes on refusals ${total((s) => s.digestChanges)} (${total((s) => s.digests)} digests), ` +
          `max latency ${slowest?.maxLatencyMs.toFixed(0) ?? 0} ms (${slowest?.target ?? "-"}), wall ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    });

    describe("REST endpoints", () => {
      for (const endpoint of w.app.endpoints) {
        const target = `${endpoint.method} ${endpoint.path}`;
        it(target, async () => {
          const requests = drawn(endpointRequests(endpoint, w, ids), seedFor(seed, target), runs);
          check(await fuzzHttp(w, target, requests));
        }, options.timeoutMs);
      }
    });

    describe("actions through POST /v1/api/actions", () => {
      for (const action of w.app.service.catalog.list()) {
        const target = `dispatch ${action.name}`;
        it(target, async () => {
          const requests = drawn(dispatchRequests(action, w, ids), seedFor(seed, target), runs);
          check(await fuzzHttp(w, target, requests));
        }, options.timeoutMs);
      }
    });

    describe("actions over MCP tools/call", () => {
      for (const action of w.app.service.catalog.list()) {
        const target = `mcp ${action.name}`;
        it(target, async () => {
          const calls = drawn(toolCalls(action, ids), seedFor(seed, target), runs);
          check(await fuzzMcp(w, client, target, calls));
        }, options.timeoutMs);
      }
    });
  });
}
