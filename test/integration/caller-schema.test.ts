import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { ingest, fileEntry } from "../support/ingest-helpers.js";

const DOCS: Array<[string, string]> = [
  ["budget.md", "# Budget\n\nThe budget for the new office is forty thousand euros a year.\n\nThe budget owner is Dana Reyes.\n"],
  ["deploy.md", "# Deployment\n\nThe service deploys from the main branch every night. Rollbacks take ten minutes.\n"],
];

/** `^(\w+\s?)*$` backtracks exponentially on V8 over a sentence that ends in a period. */
const REDOS = { type: "object", properties: { budget: { type: "string", pattern: "^(\\w+\\s?)*$" } } };

type Envelope = { result?: MemoryQueryAnswer; error?: { status: number; code: string; message: string } };

describe("memory_query with caller-supplied schemas", () => {
  let w: TestWorld;
  const call = (input: Record<string, unknown>) =>
    send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input } });
  /** Status, body, and milliseconds from `since` until the answer was read. */
  const timed = async (input: Record<string, unknown>, since: number) => {
    const res = await call(input);
    const body = (await res.json()) as Envelope;
    return { status: res.status, body, ms: performance.now() - since };
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, DOCS.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("the backtracking pattern answers 200 at once, and a plain request sent beside it is answered meanwhile", async () => {
    const started = performance.now();
    const [hostile, plain] = await Promise.all([
      timed({ query: "budget for the new office", schema: REDOS }, started),
      timed({ query: "When does the service deploy?" }, started),
    ]);
    expect(hostile.status).toBe(200);
    expect(plain.status).toBe(200);
    expect(hostile.ms).toBeLessThan(2000);
    expect(plain.ms).toBeLessThan(2000);
    const budgetRow = hostile.body.result!.cells.find((c) => c.text.startsWith("The budget for the new office"));
    expect(budgetRow).toBeDefined();
    // The sentences end in a period, which neither \w nor \s matches, so none may fill the field; a row of bare words (the heading) may.
    const { budget } = hostile.body.result!.structured as { budget?: string };
    if (budget !== undefined) expect(budget).toMatch(/^[A-Za-z]+(?: [A-Za-z]+)*$/);
    expect(hostile.body.result!.citations!["/budget"] ?? []).not.toContain(budgetRow!.cellId);
    expect(plain.body.result!.cells[0]!.text).toMatch(/deploys from the main branch/);
  });

  it("an outside $ref, a lookaround pattern and an oversized schema are 400 naming why", async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [
        { type: "object", properties: { budget: { $ref: "https://other.example/tenant.json" } } },
        'invalid input: schema: $ref "https://other.example/tenant.json" points outside the schema; only "#" and "#/…" pointers into it are allowed',
      ],
      [{ type: "object", properties: { budget: { type: "string", pattern: "^(?=budget)" } } }, /^invalid input: schema: pattern "\^\(\?=budget\)" is not supported \(/],
      [
        { type: "object", properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, { type: "string" }])) },
        "invalid input: schema: has 2000 properties; at most 500",
      ],
    ];
    for (const [schema, message] of cases) {
      const res = await call({ query: "budget", schema });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as Required<Pick<Envelope, "error">>;
      expect(error.code).toBe("invalid_input");
      if (typeof message === "string") expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
  });

  it("the same $id sent by two callers in turn: each gets its own schema's answer", async () => {
    const first = await timed({ query: "budget owner", schema: { $id: "urn:pks:same", type: "object", properties: { owner: { type: "string" } } } }, 0);
    const second = await timed({ query: "budget owner", schema: { $id: "urn:pks:same", type: "object", properties: { nightly: { type: "string" } } } }, 0);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.result!.structured).toEqual({ owner: "The budget owner is Dana Reyes." });
    expect(Object.keys(second.body.result!.structured as object)).not.toContain("owner");
  });
});
