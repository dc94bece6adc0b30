import { readFileSync } from "node:fs";
import { get_encoding } from "tiktoken";
import { describe, expect, it } from "vitest";
import { tokenCounter } from "../../../src/retrieve/token-counter.js";

const SAMPLES = [
  "",
  "hello world",
  '{"cellId":"cel_1AbC","text":"Payments settle nightly. Refunds take five days."}',
  "Ünïcödé, emoji 👩‍💻 and 日本語のテキスト, mixed\ttabs\nand newlines.",
  "function parseConfig(path: string): Config { return JSON.parse(readFileSync(path, 'utf8')); }",
  readFileSync(new URL("../../../README.md", import.meta.url), "utf8"),
  readFileSync(new URL("../../../src/errors.ts", import.meta.url), "utf8"),
];

describe("token counting", () => {
  for (const encoding of ["o200k_base", "cl100k_base"] as const) {
    it(`${encoding}: identical to tiktoken on prose, code, JSON and unicode`, () => {
      const reference = get_encoding(encoding);
      const count = tokenCounter(encoding);
      for (const s of SAMPLES) expect(count(s), s.slice(0, 40)).toBe(reference.encode(s).length);
      reference.free();
    });
  }

  it("counts compact JSON with long punctuated runs exactly", () => {
    const reference = get_encoding("o200k_base");
    const count = tokenCounter("o200k_base");
    const json = JSON.stringify({ cells: Array.from({ length: 40 }, (_, i) => ({ cellId: `cel_${i}`, text: `https://example.com/a/b/c?d=${i}` })) });
    expect(json.length).toBeGreaterThan(300);
    expect(count(json)).toBe(reference.encode(json).length);
    reference.free();
  });

  it("guards huge single-character runs: counted in slices, never fewer tokens than exact", () => {
    const count = tokenCounter("o200k_base");
    const run = "a".repeat(1_000_000);
    const sliced = count(run);
    expect(sliced).toBeGreaterThan(0);
    const reference = get_encoding("o200k_base");
    const small = "x".repeat(5000);
    expect(count(small)).toBeGreaterThanOrEqual(reference.encode(small).length);
    reference.free();
  });
});
