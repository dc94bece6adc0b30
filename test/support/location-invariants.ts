/**
 * Invariants of `sourceLocation` and cells for readers of every format,
 * including those without lines (PDF pages, Word documents): only the keys
 * a format uses are present, each a positive integer (absent, never zero),
 * ranges run forward, and cells cite real factions and heading parents.
 */
import { expect } from "vitest";
import type { ReadOutput, SourceLocation } from "../../src/readers/reader.js";
import { expectWellFormedCells } from "./invariants.js";

export type LocationKey = keyof SourceLocation;

/** The keys each family of reader sets on every faction. */
export const LOCATION_KEYS = {
  lines: ["lineStart", "lineEnd"],
  pages: ["pdfPageStart", "pdfPageEnd"],
  none: [],
  media: ["lineStart", "lineEnd", "audioStartMs", "videoStartMs"],
} as const satisfies Record<string, readonly LocationKey[]>;

function expectRange(start: number | undefined, end: number | undefined): void {
  if (start === undefined || end === undefined) return;
  expect(end).toBeGreaterThanOrEqual(start);
}

/** Every faction carries exactly `keys`, positive integers, ranges forward; cells are well formed. */
export function expectLocations(out: ReadOutput, keys: readonly LocationKey[]): void {
  for (const faction of out.factions) {
    const loc = faction.location;
    expect(Object.keys(loc).sort()).toEqual([...keys].sort());
    for (const value of Object.values(loc)) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThan(0);
    }
    expectRange(loc.lineStart, loc.lineEnd);
    expectRange(loc.pdfPageStart, loc.pdfPageEnd);
  }
  expectWellFormedCells(out);
}
