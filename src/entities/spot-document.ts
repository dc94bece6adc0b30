/**
 * The entities of a document reading: names spotted in every cell, resolved
 * across the file (variants and aliases merge). Pure and off the main
 * thread: reader threads run it beside the reader, so the write transaction
 * that stores the reading only looks names up.
 */
import { resolutionKey, resolveMentions } from "./resolve-mentions.js";
import type { LocatedMention, ResolvedEntity } from "./resolve-mentions.js";
import { spotEntities, spotUndecided } from "./spot-entities.js";
import type { EntityMention, SpotInput, UndecidedSpotting } from "./spot-entities.js";

/**
 * Characters of span and cell text whose spotting a thread keeps. A cell's
 * mentions depend only on its text and its span (type, heading path, raw
 * text), so a re-read of an edited document spots only the cells that
 * changed: re-spotting the 4,000 cells of a 2,000-line Markdown file was
 * about 400 ms of each one-line edit. When full, the memo starts again
 * empty, like `memo.ts`'s.
 */
const CELL_MEMO_CHARS = 2_000_000;

interface CellSpotting {
  undecided?: UndecidedSpotting;
  full?: EntityMention[];
}

/** Spotting answers by span, then by cell text (the answers are never mutated by their users). */
const cellMemo = new Map<string, Map<string, CellSpotting>>();
let cellMemoChars = 0;

/** Empties this thread's spotting memo (a benchmark's "first reading" must not find its cells there). */
export function forgetSpotted(): void {
  cellMemo.clear();
  cellMemoChars = 0;
}

/** The memo entry of one cell, made (and counted) on first use. */
function memoEntry(spanKey: string, text: string): CellSpotting {
  let cells = cellMemo.get(spanKey);
  if (!cells) {
    if (cellMemoChars + spanKey.length > CELL_MEMO_CHARS) {
      cellMemo.clear();
      cellMemoChars = 0;
    }
    cells = new Map();
    cellMemo.set(spanKey, cells);
    cellMemoChars += spanKey.length;
  }
  let entry = cells.get(text);
  if (!entry) {
    entry = {};
    cells.set(text, entry);
    cellMemoChars += text.length;
  }
  return entry;
}

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
  const spanKeys = new Map<number, string>();
  const spanKey = (i: number, f: SpottableReading["factions"][number]): string => {
    let key = spanKeys.get(i);
    if (key === undefined) {
      key = `${f.factionType}\u0000${f.headingPath.join("\u0001")}\u0000${f.text}`;
      spanKeys.set(i, key);
    }
    return key;
  };
  const inputs: (SpotInput | undefined)[] = reading.cells.map((cell) => {
    const f = reading.factions[cell.faction];
    if (!f) return undefined;
    return { text: cell.text, isHeading: f.factionType === "heading", headingPath: [...f.headingPath], factionType: f.factionType, factionText: f.text };
  });
  const entries = reading.cells.map((cell) => {
    const f = reading.factions[cell.faction];
    return f ? memoEntry(spanKey(cell.faction, f), cell.text) : undefined;
  });
  const spotted = inputs.map((input, j) => {
    if (input === undefined) return { mentions: [], undecided: [] };
    const entry = entries[j]!;
    return (entry.undecided ??= spotUndecided(input));
  });
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
    const full = settle && input !== undefined ? (entries[j]!.full ??= spotEntities(input)) : mentions;
    for (const mention of full) located.push({ cell: j, mention });
  });
  return resolveMentions(located);
}
