import { describe, expect, it } from "vitest";
import { memoize } from "../../../src/entities/memo.js";

describe("memoize", () => {
  it("answers as the function does, computing each input once", () => {
    const seen: string[] = [];
    const upper = memoize((s: string) => {
      seen.push(s);
      return s.toUpperCase();
    });
    expect([upper("a"), upper("b"), upper("a"), upper("")]).toEqual(["A", "B", "A", ""]);
    expect(upper("")).toBe("");
    expect(seen).toEqual(["a", "b", ""]);
  });

  it("keeps an undefined answer too", () => {
    let calls = 0;
    const none = memoize((_: string): string | undefined => {
      calls++;
      return undefined;
    });
    none("x");
    none("x");
    expect(calls).toBe(1);
  });

  it("starts again when full, and does not keep long inputs", () => {
    let calls = 0;
    const length = memoize((s: string) => {
      calls++;
      return s.length;
    }, 2);
    length("a");
    length("b");
    length("c"); // full: forgets a and b
    length("a");
    expect(calls).toBe(4);
    const long = "x".repeat(500);
    length(long);
    length(long);
    expect(calls).toBe(6);
  });
});
