import { describe, expect, it } from "vitest";
import { walkProximity, weightedPageRank } from "../../../src/retrieve/page-rank.js";

const edges = [
  { a: "s", b: "x", weight: 3 },
  { a: "s", b: "y", weight: 1 },
  { a: "y", b: "z", weight: 1 },
  { a: "p", b: "q", weight: 1 },
];

describe("weighted personalized PageRank", () => {
  it("sums to 1, follows heavier edges more, and never reaches another component", () => {
    const rank = weightedPageRank(edges, new Map([["s", 1]]));
    expect([...rank.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(rank.get("x")!).toBeGreaterThan(rank.get("y")!);
    expect(rank.get("y")!).toBeGreaterThan(rank.get("z")!);
    expect(rank.has("p")).toBe(false);
  });

  it("restarts in proportion to the personalization; none gives nothing", () => {
    const rank = weightedPageRank(edges, new Map([["x", 3], ["p", 1]]));
    expect(rank.get("x")!).toBeGreaterThan(rank.get("p")!);
    expect(weightedPageRank(edges, new Map())).toEqual(new Map());
    expect(weightedPageRank(edges, new Map([["alone", 1]])).get("alone")).toBeCloseTo(1, 9);
  });

  it("proximity counts only what arrived by walking, scaled to 0..1 outside the ignored nodes", () => {
    const near = walkProximity(edges, new Map([["s", 1]]), 0.3, new Set(["s"]));
    expect(near.has("s")).toBe(false);
    expect(near.get("x")).toBe(1);
    expect(near.get("z")!).toBeLessThan(near.get("y")!);
    const lone = walkProximity([], new Map([["s", 1]]), 0.3);
    expect(lone.get("s")).toBe(0);
  });
});
