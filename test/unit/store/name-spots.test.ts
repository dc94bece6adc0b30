import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSites, encodeSites, nameSpots } from "../../../src/store/code/reference-sites.js";
import type { Site } from "../../../src/store/code/reference-sites.js";

const site: fc.Arbitrary<Site> = fc
  .record({
    lineStart: fc.nat(20_000),
    span: fc.nat(40),
    nameOffset: fc.nat(40),
    nameCol: fc.nat(300),
    symbolId: fc.option(fc.stringMatching(/^sym_[A-Za-z0-9]{22}$/), { nil: null }),
  })
  .map(({ lineStart, span, nameOffset, nameCol, symbolId }) => ({
    lineStart,
    lineEnd: lineStart + span,
    nameLine: lineStart + Math.min(span, nameOffset),
    nameCol,
    symbolId,
  }));

describe("name spots of packed sites", () => {
  it("are the decoded sites' name lines and columns that the test keeps, in listing order", () => {
    fc.assert(
      fc.property(fc.array(site, { minLength: 1, maxLength: 40 }), fc.nat(20_000), fc.nat(2_000), (sites, from, width) => {
        const text = encodeSites(sites);
        const keep = (line: number) => line >= from && line <= from + width;
        const expected = decodeSites(text).filter((s) => keep(s.nameLine)).map((s) => ({ line: s.nameLine, col: s.nameCol }));
        expect(nameSpots(text, keep)).toEqual(expected);
        expect(nameSpots(text, () => true)).toHaveLength(sites.length);
      }),
      { numRuns: 300 },
    );
  });

  it("reads both forms: a one-line usage and a site with its own name line", () => {
    expect(nameSpots("3:7,10:2:14:12:sym_abc,10:9", () => true)).toEqual([
      { line: 3, col: 7 },
      { line: 12, col: 2 },
      { line: 10, col: 9 },
    ]);
  });
});
