/**
 * The fuzz suites in the default run, from a fixed seed and small: 20
 * requests per REST endpoint, per dispatched action and per MCP tool, and a
 * few hostile documents per reader family (at most 64 KiB each, read with a
 * 2 s time limit). The soak run (test/soak/fuzz-*.test.ts) draws 500
 * requests a target and 200 full-size documents a family from a random seed.
 * `FUZZ_SEED`, `FUZZ_RUNS` and `FUZZ_DOCS` change the draw.
 */
import { defineEndpointFuzz } from "../support/fuzz/endpoint-suite.js";
import { defineHostileFuzz } from "../support/fuzz/hostile-suite.js";

const SEED = Number(process.env.FUZZ_SEED ?? 1);
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 20));
const DOCS = Math.max(1, Number(process.env.FUZZ_DOCS ?? 4));
const replay = `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_DOCS=${DOCS} npx vitest run --project integration test/integration/fuzz-short.test.ts`;

await defineEndpointFuzz({ seed: SEED, runs: RUNS, replay, timeoutMs: 60_000 });

defineHostileFuzz({ seed: SEED, count: DOCS, maxBytes: 64 * 1024, readTimeoutMs: 2_000, deadlineMs: 60_000, timeoutMs: 90_000, replay });
