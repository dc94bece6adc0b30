import { describe, expect, it } from "vitest";
import { relevanceCut } from "../../../../src/retrieve/code/relevance-cut.js";

const rows = (...scores: number[]) => scores.map((score, i) => ({ id: i, score }));

describe("relevanceCut", () => {
  it("keeps every row at or above the ratio of the best, in the ranking's own order", () => {
    expect(relevanceCut(rows(10, 8, 6, 4.9, 9), { ratio: 0.5, max: 10 }).map((r) => r.id)).toEqual([0, 1, 2, 4]);
    expect(relevanceCut(rows(6, 10, 4.9, 5), { ratio: 0.5 }).map((r) => r.id)).toEqual([0, 1, 3]);
  });

  it("never keeps more than max, and nothing when nothing is relevant", () => {
    expect(relevanceCut(rows(5, 5, 5, 5), { ratio: 0.1, max: 2 })).toHaveLength(2);
    expect(relevanceCut(rows(0, 0), { ratio: 0.5, max: 5 })).toEqual([]);
    expect(relevanceCut([], { ratio: 0.5, max: 5 })).toEqual([]);
  });
});
