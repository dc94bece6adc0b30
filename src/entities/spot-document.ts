/**
 * The entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge). Pure and off the main
 * thread: reader threads run it beside the reader, so the write transaction
 * that stores the reading only looks names up.
 */
import { resolveMentions } from "./resolve-mentions.js";
import type { LocatedMention, ResolvedEntity } from "./resolve-mentions.js";
import { spotEntities } from "./spot-entities.js";

/** What spotting needs of a reading: cells with the faction each belongs to. */
export interface SpottableReading {
  readonly factions: ReadonlyArray<{ readonly factionType: string; readonly headingPath: readonly string[]; readonly text: string }>;
  readonly cells: ReadonlyArray<{ readonly faction: number; readonly text: string }>;
}

/** The entities a document reading names, each with the indexes of the cells that mention it. */
export type DocumentEntities = ResolvedEntity<number>[];

export function spotDocument(reading: SpottableReading): DocumentEntities {
  const located: LocatedMention<number>[] = [];
  reading.cells.forEach((cell, j) => {
    const f = reading.factions[cell.faction];
    if (!f) return;
    const spotted = spotEntities({
      text: cell.text,
      isHeading: f.factionType === "heading",
      headingPath: [...f.headingPath],
      factionType: f.factionType,
      factionText: f.text,
    });
    for (const mention of spotted) located.push({ cell: j, mention });
  });
  return resolveMentions(located);
}
