import fc from "fast-check";
import { get_encoding } from "tiktoken";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/errors.js";
import { packRows } from "../../../src/retrieve/pack-rows.js";
import { tokenCounter } from "../../../src/retrieve/token-counter.js";

/** A memory answer's cell row: its source keys only where they apply. */
const cell = fc
  .record({
    cellId: fc.stringMatching(/^cel_[\w]{22}$/),
    text: fc.oneof(fc.string({ maxLength: 300 }), fc.lorem({ maxCount: 40 })),
    fileId: fc.stringMatching(/^fil_[\w]{22}$/),
    filepath: fc.stringMatching(/^[\w./ -]{1,120}$/),
    span: fc.oneof(
      fc.record({ lineStart: fc.integer({ min: 1, max: 99_999 }), lineEnd: fc.integer({ min: 1, max: 99_999 }) }),
      fc.record({ pdfPageStart: fc.integer({ min: 1, max: 2000 }), pdfPageEnd: fc.integer({ min: 1, max: 2000 }) }),
      fc.record({ lineStart: fc.integer({ min: 1, max: 9999 }), lineEnd: fc.integer({ min: 1, max: 9999 }), audioStartMs: fc.integer({ min: 1, max: 1e8 }), videoStartMs: fc.integer({ min: 1, max: 1e8 }) }),
      fc.constant({}),
    ),
  })
  .map(({ span, ...c }) => ({ t: "cell" as const, ...c, ...span }));

/** An entity row: a symbol names its file. */
const entity = fc.oneof(
  fc.record({ t: fc.constant("entity" as const), entityId: fc.stringMatching(/^ent_[\w]{22}$/), kind: fc.constantFrom("person", "concept"), name: fc.string({ minLength: 1, maxLength: 60 }) }),
  fc.record({
    t: fc.constant("entity" as const),
    entityId: fc.stringMatching(/^ent_[\w]{22}$/),
    kind: fc.constant("symbol"),
    name: fc.stringMatching(/^[A-Za-z_$][\w$.]{0,40}$/),
    filepath: fc.stringMatching(/^[\w./-]{1,120}$/),
  }),
);

type Row = { t: "cell" | "entity" } & Record<string, unknown>;

/** The memory answer's serialization: rows split by kind, the `t` tag dropped. */
const answerOf = (query: string) => (rows: Row[]) =>
  JSON.stringify({
    query,
    cells: rows.filter((r) => r.t === "cell").map(({ t: _t, ...c }) => c),
    entities: rows.filter((r) => r.t === "entity").map(({ t: _t, ...e }) => e),
    artifacts: [],
  });

describe("packing to a budget", () => {
  const reference = get_encoding("o200k_base");
  const count = tokenCounter("o200k_base");
  const exact = (text: string) => reference.encode_ordinary(text).length;

  it("counts answer rows with their source keys exactly as tiktoken does", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(cell, entity), { maxLength: 20 }), fc.string({ maxLength: 200 }), (rows, query) => {
        const text = answerOf(query)(rows);
        expect(count(text)).toBe(exact(text));
      }),
      { numRuns: 150 },
    );
  });

  it("keeps used ≤ budget and exact for every budget from the empty answer's cost up; below it, 400 naming that cost", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(cell, entity), { maxLength: 40 }), fc.string({ maxLength: 100 }), fc.integer({ min: 0, max: 4096 }), (rows, query, extra) => {
        const serialize = answerOf(query);
        const floor = exact(serialize([]));
        const budget = floor + extra;
        const packed = packRows(rows, budget, count, serialize);
        expect(packed.used).toBe(exact(serialize(packed.rows)));
        expect(packed.used).toBeLessThanOrEqual(budget);
        let at = 0;
        for (const r of packed.rows) {
          at = rows.indexOf(r, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at += 1;
        }
        const below = () => packRows(rows, floor - 1, count, serialize);
        expect(below).toThrow(AppError);
        expect(below).toThrow(`invalid input: budget: must be at least ${floor} tokens, what the empty answer already costs`);
      }),
      { numRuns: 200 },
    );
  });

  it("takes every row when the budget covers each row's own serialization, and answers the exact count", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(cell, entity), { minLength: 1, maxLength: 30 }), (rows) => {
        const serialize = answerOf("q");
        const budget = rows.reduce((n, r) => n + exact(JSON.stringify(r)) + 1, exact(serialize([])));
        const packed = packRows(rows, budget, count, serialize);
        expect(packed.rows).toEqual(rows);
        expect(packed.used).toBe(exact(serialize(rows)));
      }),
      { numRuns: 100 },
    );
  });

  it("a head packed again with the rest counts each row once and the whole only at the end, and still ends exact and within budget", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(cell, entity), { maxLength: 30 }), fc.array(entity, { maxLength: 10 }), fc.integer({ min: 0, max: 3000 }), (rows, rest, extra) => {
        const serialize = answerOf("q");
        const budget = exact(serialize([])) + extra;
        const counted: string[] = [];
        const spy = (text: string) => (counted.push(text), count(text));
        const costs = new Map<Row, number>();
        const head = packRows(rows, Math.max(exact(serialize([])), budget - Math.floor(budget / 4)), spy, serialize, { costs, exact: false });
        const estimate = head.rows.reduce((n, r) => n + costs.get(r)!, count(serialize([])));
        expect(head.used).toBe(estimate);
        if (head.rows.length > 0) expect(counted).not.toContain(serialize(head.rows));
        const all = packRows([...head.rows, ...rest], budget, spy, serialize, { costs });
        for (const r of head.rows) expect(counted.filter((t) => t === JSON.stringify(r))).toHaveLength(1);
        expect(all.used).toBe(exact(serialize(all.rows)));
        expect(all.used).toBeLessThanOrEqual(budget);
      }),
      { numRuns: 100 },
    );
  });
});

describe("where packing stops looking", () => {
  const count = tokenCounter("o200k_base");
  const serialize = (rows: string[]) => JSON.stringify(rows);

  it("names the row at which it gave up after passing over 50 that did not fit, and the rows after it change nothing", () => {
    const rows = ["fits", ...Array.from({ length: 60 }, (_, i) => `${"too long ".repeat(40)}${i}`), "fits too"];
    const head = packRows(rows, 30, count, serialize, { exact: false });
    expect(head.rows).toEqual(["fits"]);
    expect(head.stoppedAt).toBe(51);
    const cut = packRows(rows.slice(0, 52), 30, count, serialize, { exact: false });
    expect(cut).toEqual(head);
  });

  it("names none when it looked at every row", () => {
    const head = packRows(["a", "b", "c".repeat(400)], 30, count, serialize, { exact: false });
    expect(head.rows).toEqual(["a", "b"]);
    expect(head.stoppedAt).toBeUndefined();
  });
});
