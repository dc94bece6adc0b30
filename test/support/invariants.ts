import { expect } from "vitest";
import type { ReadOutput } from "../../src/readers/reader.js";
import { MAX_CELL_CHARS } from "../../src/readers/common/sentences.js";

/** Structural rules every prose reader's output keeps. */
export function expectWellFormed(out: ReadOutput): void {
  let previousStart = 0;
  for (const faction of out.factions) {
    const { lineStart, lineEnd } = faction.location;
    expect(lineStart).toBeGreaterThanOrEqual(1);
    expect(lineEnd).toBeGreaterThanOrEqual(lineStart ?? 0);
    expect(lineStart).toBeGreaterThanOrEqual(previousStart);
    previousStart = lineStart ?? 0;
  }
  expectWellFormedCells(out);
}

/** Cells cite real factions, are trimmed, bounded, and hang under heading cells that come before them. */
export function expectWellFormedCells(out: ReadOutput): void {
  out.cells.forEach((cell, i) => {
    expect(out.factions[cell.faction]).toBeDefined();
    expect(cell.text.length).toBeGreaterThan(0);
    expect(cell.text.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    expect(cell.text).toBe(cell.text.trim());
    if (cell.parent !== undefined) {
      expect(cell.parent).toBeLessThan(i);
      const parent = out.cells[cell.parent];
      expect(parent && out.factions[parent.faction]?.factionType).toBe("heading");
    }
  });
}
