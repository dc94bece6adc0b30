/**
 * Every REST endpoint, every action through `POST /v1/api/actions` and every
 * action over MCP, fuzzed: 500 requests a target from a random seed (printed).
 * Replay a run with `FUZZ_SEED=<seed> npx vitest run --project soak test/soak/fuzz-endpoints.test.ts`;
 * `FUZZ_RUNS` changes the count, `FUZZ_VERBOSE=1` prints every request.
 */
import { defineEndpointFuzz } from "../support/fuzz/endpoint-suite.js";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 500));

await defineEndpointFuzz({
  seed: SEED,
  runs: RUNS,
  replay: `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run --project soak test/soak/fuzz-endpoints.test.ts`,
  timeoutMs: 600_000,
});
