import { describe, expect, it } from "vitest";
import { diversify } from "../../../../src/retrieve/code/diversify.js";

const c = (item: string, file: string, terms: Record<string, number>, extra = 0) => ({
  item,
  file,
  score: Object.values(terms).reduce((s, v) => s + v, 0) + extra,
  terms: new Map(Object.entries(terms)),
});

describe("diversify", () => {
  it("lets a second term through once a common one has been picked a few times", () => {
    const many = Array.from({ length: 10 }, (_, i) => c(`ctor${i}`, `f${i}`, { constructor: 1 }));
    const out = diversify([...many, c("dispatch", "d", { instanceof: 0.4 })], { term: 0.5, file: 1, whole: 1 }, 20).map((r) => r.item);
    expect(out.indexOf("dispatch")).toBe(2);
    const plain = diversify([...many, c("dispatch", "d", { instanceof: 0.4 })], { term: 1, file: 1, whole: 1 }, 20).map((r) => r.item);
    expect(plain.indexOf("dispatch")).toBe(10);
  });

  it("spreads picks over files, keeps each row's own score and says its worth when picked", () => {
    const rows = [c("a1", "a", { x: 1 }), c("a2", "a", { y: 0.9 }), c("b1", "b", { z: 0.8 })];
    const out = diversify(rows, { term: 1, file: 0.5, whole: 1 }, 10);
    expect(out.map((r) => r.item)).toEqual(["a1", "b1", "a2"]);
    expect(out.map((r) => r.score)).toEqual([1, 0.8, 0.9]);
    expect(out.map((r) => r.worth)).toEqual([1, 0.8, 0.45]);
  });

  it("lowers a score in proportion to its decayed terms, never one without terms, and stops at the limit", () => {
    const rows = [c("named", "a", { x: 0.1 }, 1), c("other", "b", { x: 1 })];
    const out = diversify(rows, { term: 0, file: 1, whole: 1 }, 1);
    expect(out.map((r) => r.item)).toEqual(["named"]);
    expect(diversify(rows, { term: 0, file: 1, whole: 1 }, 5).map((r) => r.worth)).toEqual([1.1, 0]);
    const mixed = [c("a", "a", { x: 1 }, 1), c("b", "b", { x: 0.5, y: 0.5 }, 1), c("walk", "c", {}, 0.5)];
    expect(diversify(mixed, { term: 0.5, file: 1, whole: 1 }, 5).map((r) => [r.item, r.worth])).toEqual([["a", 2], ["b", 1.5], ["walk", 0.5]]);
    // Only the term parts fall: b keeps its term-free 1 and half of x.
    expect(diversify(mixed, { term: 0.5, file: 1, whole: 0 }, 5).map((r) => [r.item, r.worth])).toEqual([["a", 2], ["b", 1.75], ["walk", 0.5]]);
  });
});
