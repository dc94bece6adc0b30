/**
 * Durability under `kill -9`, soak run: a random seed (printed) and twelve
 * kills by default. Replay a run, or go longer:
 *
 *   DURABILITY_SEED=123 DURABILITY_KILLS=50 npm run test:soak -- durability
 *
 * The default run keeps a short fixed-seed version in
 * test/integration/durability.test.ts.
 */
import { describe, it } from "vitest";
import { durabilityTimeoutMs, runDurability } from "../support/durability-run.js";

const KILLS = Math.max(1, Number(process.env.DURABILITY_KILLS ?? 12));
const SEED = Number(process.env.DURABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe("durability under kill -9", () => {
  it(`loses nothing acknowledged and finishes queued work across ${KILLS} kills`, { timeout: durabilityTimeoutMs(KILLS) }, async () => {
    await runDurability({ seed: SEED, kills: KILLS });
  });
});
