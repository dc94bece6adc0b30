/**
 * Stored factions and cells as ingestion would keep them, made by running
 * the real readers on small inputs: ids are `<fileId>#f<i>` and
 * `<fileId>#c<j>`, ordinals the reader's order (cells numbered over the
 * whole file, as ingestion numbers them).
 */
import { readerFor } from "../../../../src/readers/index.js";
import type { StoredCell, StoredFaction } from "../../../../src/categories/instance.js";

export interface StoredReading {
  factions: StoredFaction[];
  cells: StoredCell[];
}

/** One file read by the reader that accepts its path. */
export async function storedFile(fileId: string, path: string, source: string): Promise<StoredReading> {
  const reader = readerFor({ path, contentType: "" });
  if (reader === undefined) throw new Error(`no reader for ${path}`);
  const out = await reader.read({ path, contentType: "", bytes: new TextEncoder().encode(source) });
  const factionId = (i: number) => `${fileId}#f${i}`;
  const cellId = (j: number) => `${fileId}#c${j}`;
  return {
    factions: out.factions.map((f, i) => ({
      factionId: factionId(i),
      fileId,
      path,
      ordinal: i,
      factionType: f.factionType,
      inferredType: f.inferredType,
      headingPath: f.headingPath,
      text: f.text,
    })),
    cells: out.cells.map((c, j) => ({
      cellId: cellId(j),
      factionId: factionId(c.faction),
      parentCellId: c.parent === undefined ? null : cellId(c.parent),
      ordinal: j,
      text: c.text,
    })),
  };
}

/** Several files, `[fileId, path, source]` each, in one reading. */
export async function storedFiles(files: readonly (readonly [string, string, string])[]): Promise<StoredReading> {
  const readings = await Promise.all(files.map(([id, path, source]) => storedFile(id, path, source)));
  return { factions: readings.flatMap((r) => r.factions), cells: readings.flatMap((r) => r.cells) };
}
