/**
 * Durability under `kill -9`, short and fixed: seed 1, three kills (the
 * schedule it draws: see test/support/durability-run.ts). The soak run
 * (test/soak/durability.test.ts) draws a random seed and kills twelve times.
 */
import { describe, it } from "vitest";
import { durabilityTimeoutMs, runDurability } from "../support/durability-run.js";

const SEED = 1;
const KILLS = 3;

describe("durability under kill -9", () => {
  it(`loses nothing acknowledged and finishes queued work across ${KILLS} kills (seed ${SEED})`, { timeout: durabilityTimeoutMs(KILLS) }, async () => {
    await runDurability({ seed: SEED, kills: KILLS });
  });
});
