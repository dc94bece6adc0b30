/**
 * The fuzz suites in the default run, from a fixed seed and small: 20
 * requests per REST endpoint, per dispatched action and per MCP tool, and 10
 * hostile documents per reader family (at most 64 KiB each, read with a
 * 2 s time limit). The soak run (test/soak/fuzz-*.test.ts) draws 500
 * requests a target and 200 full-size documents a family from a random seed.
 * `FUZZ_SEED`, `FUZZ_RUNS` and `FUZZ_DOCS` change the draw.
 */
import { describe, expect, it } from "vitest";
import { answerProblems } from "../support/fuzz/answer-checks.js";
import { DigestWatch } from "../support/fuzz/digest.js";
import { defineEndpointFuzz } from "../support/fuzz/endpoint-suite.js";
import { createFuzzWorld } from "../support/fuzz/fuzz-world.js";
import { defineHostileFuzz } from "../support/fuzz/hostile-suite.js";

const SEED = Number(process.env.FUZZ_SEED ?? 1);
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 20));
const DOCS = Math.max(1, Number(process.env.FUZZ_DOCS ?? 10));
const replay = `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_DOCS=${DOCS} npx vitest run --project integration test/integration/fuzz-short.test.ts`;

await defineEndpointFuzz({ seed: SEED, runs: RUNS, replay, timeoutMs: 60_000 });

defineHostileFuzz({ seed: SEED, count: DOCS, maxBytes: 64 * 1024, readTimeoutMs: 2_000, deadlineMs: 60_000, timeoutMs: 90_000, replay });

describe("the fuzz checks catch what they are for", () => {
  it("an answer with a 5xx, driver text, a stack line or a bent envelope is a problem", () => {
    const json = "application/json";
    expect(answerProblems({ status: 500, text: '{"error":{"status":500,"code":"internal","message":"internal error"}}', contentType: json }, "")).toEqual(["status 500"]);
    expect(answerProblems({ status: 400, text: '{"error":{"status":400,"code":"invalid_input","message":"SQLITE_ERROR"}}', contentType: json }, "")).toEqual([
      "answer carries SQLITE_",
    ]);
    expect(answerProblems({ status: 200, text: "Error\n    at run (/srv/app/x.js:1:2)", contentType: json }, "")).toEqual(["answer carries stack line"]);
    expect(answerProblems({ status: 404, text: '{"error":{"status":400,"code":"not_found","message":"x"},"stack":""}', contentType: json }, "")).toEqual([
      "error body has stray keys stack",
      "error.status 400 is not the HTTP status 404",
    ]);
    expect(answerProblems({ status: 400, text: '{"error":{"status":400,"code":"invalid_input","message":"x"}}', contentType: json }, "")).toEqual([]);
  });

  it("the digest watch sees a write slipped in among refusals", async () => {
    const { w } = await createFuzzWorld();
    try {
      const watch = new DigestWatch(w.app.deps.db, () => w.app.worker.whenIdle());
      const get = { mayWrite: false, sampled: false };
      await watch.before(get);
      await watch.after(get, 404, "a refusal");
      await w.app.deps.db.execute("UPDATE files SET path = path || '~' WHERE rowid = (SELECT min(rowid) FROM files)");
      await watch.before(get);
      await watch.after(get, 400, "another refusal");
      await watch.check();
      expect(watch.changes).toHaveLength(1);
    } finally {
      await w.close();
    }
  });
});
