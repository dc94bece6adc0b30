import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lastBefore, lowerBound } from "../../../src/text/sorted-offsets.js";

describe("sorted offsets", () => {
  it("finds the first offset at or after a position, and the last one before it", () => {
    const offsets = [3, 8, 8, 20];
    expect([0, 3, 4, 8, 9, 20, 21].map((t) => lowerBound(offsets, t))).toEqual([0, 0, 1, 1, 3, 3, 4]);
    expect([0, 3, 4, 8, 9, 20, 21].map((t) => lastBefore(offsets, t))).toEqual([-1, -1, 3, 3, 8, 8, 20]);
    expect(lowerBound([], 5)).toBe(0);
    expect(lastBefore([], 5)).toBe(-1);
  });

  it("agrees with a linear scan", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100)), fc.nat(110), (values, target) => {
        const offsets = [...values].sort((a, b) => a - b);
        const first = offsets.findIndex((o) => o >= target);
        expect(lowerBound(offsets, target)).toBe(first < 0 ? offsets.length : first);
        expect(lastBefore(offsets, target)).toBe(offsets.filter((o) => o < target).at(-1) ?? -1);
      }),
    );
  });
});
