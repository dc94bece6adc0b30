import { describe, expect, it } from "vitest";
import { shannonEntropy } from "../../../../src/ingest/secrets/entropy.js";

describe("shannonEntropy", () => {
  it("is 0 for empty and constant strings", () => {
    expect(shannonEntropy("")).toBe(0);
    expect(shannonEntropy("aaaaaaaa")).toBe(0);
  });

  it("is log2(n) for n distinct characters", () => {
    expect(shannonEntropy("ab")).toBeCloseTo(1);
    expect(shannonEntropy("abcdefgh")).toBeCloseTo(3);
    expect(shannonEntropy("0123456789abcdef")).toBeCloseTo(4);
  });

  it("weighs by frequency", () => {
    expect(shannonEntropy("aaab")).toBeCloseTo(-(0.75 * Math.log2(0.75) + 0.25 * Math.log2(0.25)));
  });
});
