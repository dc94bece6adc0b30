/**
 * The entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge). Pure and off the main
 * thread: reader threads run it beside the reader, so the write transaction
 * that stores the reading only looks names up.
 */
import { resolutionKey, resolveMentions } from "./resolve-mentions.js";
import type { LocatedMention, ResolvedEntity } from "./resolve-mentions.js";
import { spotEntities, spotUndecided } from "./spot-entities.js";
import type { SpotInput } from "./spot-entities.js";

/** What spotting needs of a reading: cells with the faction each belongs to. */
export interface SpottableReading {
  readonly factions: ReadonlyArray<{ readonly factionType: string; readonly headingPath: readonly string[]; readonly text: string }>;
  readonly cells: ReadonlyArray<{ readonly faction: number; readonly text: string }>;
}

/** The entities a document reading names, each with the indexes of the cells that mention it. */
export type DocumentEntities = ResolvedEntity<number>[];

/**
 * Spots every cell, then resolves. A single capitalised word that could
 * only make a hinted mention (a sentence opener, an everyday word) is
 * settled by the tagger only when another mention of the document, or the
 * same word in another cell, shares its name: otherwise its mention, kept or
 * not, would back no entity and change nothing. Most cells whose only
 * capital opens the sentence are never tagged; the entities are the same as
 * when every cell is spotted in full.
 */
export function spotDocument(reading: SpottableReading): DocumentEntities {
  const inputs: (SpotInput | undefined)[] = reading.cells.map((cell) => {
    const f = reading.factions[cell.faction];
    if (!f) return undefined;
    return { text: cell.text, isHeading: f.factionType === "heading", headingPath: [...f.headingPath], factionType: f.factionType, factionText: f.text };
  });
  const spotted = inputs.map((input) => (input === undefined ? { mentions: [], undecided: [] } : spotUndecided(input)));
  const named = new Set<string>();
  const undecidedIn = new Map<string, Set<number>>();
  spotted.forEach(({ mentions, undecided }, j) => {
    for (const m of mentions) {
      named.add(resolutionKey(m.name));
      if (m.aliasOf !== undefined) named.add(resolutionKey(m.aliasOf));
    }
    for (const name of undecided) {
      const key = resolutionKey(name);
      const cells = undecidedIn.get(key) ?? new Set<number>();
      undecidedIn.set(key, cells.add(j));
    }
  });
  const located: LocatedMention<number>[] = [];
  spotted.forEach(({ mentions, undecided }, j) => {
    const settle = undecided.some((name) => {
      const key = resolutionKey(name);
      return key.length > 0 && (named.has(key) || (undecidedIn.get(key)?.size ?? 0) > 1);
    });
    const input = inputs[j];
    const full = settle && input !== undefined ? spotEntities(input) : mentions;
    for (const mention of full) located.push({ cell: j, mention });
  });
  return resolveMentions(located);
}
