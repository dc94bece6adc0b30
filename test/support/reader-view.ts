/**
 * A reviewable view of a reader's output for golden files (the same shape
 * the fixture goldens use): faction text shortened, cells with their
 * faction and parent.
 */
import type { ReadOutput } from "../../src/readers/reader.js";

const PREVIEW_CHARS = 120;

export function readerView(reader: string, out: ReadOutput): unknown {
  return {
    reader,
    factions: out.factions.map((f, i) => ({
      i,
      factionType: f.factionType,
      inferredType: f.inferredType,
      location: f.location,
      headingPath: f.headingPath,
      text: f.text.length > PREVIEW_CHARS ? `${f.text.slice(0, PREVIEW_CHARS)}…` : f.text,
    })),
    cells: out.cells.map((c, i) => ({ i, faction: c.faction, parent: c.parent ?? null, text: c.text })),
  };
}
