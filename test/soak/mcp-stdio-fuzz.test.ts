/**
 * `pks mcp` over stdio, soak run: 500 fuzzed input lines from a random seed
 * (printed). Replay one with `FUZZ_SEED=<seed> npm run test:soak -- mcp-stdio`.
 * The default run sends 100 lines from seed 1 (test/integration/mcp-stdio.test.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzStdio } from "../support/stdio-fuzz.js";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 100_000));
const LINES = Math.max(1, Number(process.env.FUZZ_LINES ?? 500));

describe("pks mcp over stdio (child process), fuzzed", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pks-stdio-fuzz-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(`stdout carries JSON-RPC only: ${LINES} fuzzed input lines leave every stdout line parseable`, async () => {
    console.log(`stdio fuzz: seed ${SEED}, ${LINES} lines (replay with FUZZ_SEED=${SEED} FUZZ_LINES=${LINES} npm run test:soak -- mcp-stdio)`);
    const outLines = await fuzzStdio(root, { seed: SEED, lines: LINES });
    expect(outLines.length, `seed ${SEED}`).toBeGreaterThan(1);
    for (const l of outLines) {
      const msg = JSON.parse(l) as { jsonrpc?: string };
      expect(msg.jsonrpc, `seed ${SEED}: ${l}`).toBe("2.0");
    }
  });
});
