/**
 * The derived facts of a reading, one file each, run in this order in
 * every phase (see deriver.ts): the code index before the links that need
 * its symbols, the search rows after everything the reading wrote.
 */
import { codeFactsDeriver } from "./code-facts.js";
import type { Queryable } from "../../../store/db.js";
import type { Carried, Deriver, DrainPass, PersistedReading, ReaderSide } from "./deriver.js";
import { documentEntitiesDeriver } from "./document-entities.js";
import { searchRowsDeriver } from "./search-rows.js";
import { symbolMentionsDeriver } from "./symbol-mentions.js";
import { typingDeriver } from "./typing.js";

export type { Carried, CellChanges, Deriver, DrainPass, PersistedReading, ReaderSide, ReadingIds, ReadTarget, Touched } from "./deriver.js";

/** Every deriver, in the order they run. */
export const derivers: readonly Deriver[] = [codeFactsDeriver, documentEntitiesDeriver, symbolMentionsDeriver, searchRowsDeriver, typingDeriver];

/** Phase 1, in the reader thread: what each deriver carries to the writer, by name. */
export function deriveInReader(reading: ReaderSide): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  for (const d of derivers) {
    const value = d.inReader?.(reading);
    if (value !== undefined) carried[d.name] = value;
  }
  return carried;
}

/** Phase 2, in the writer's transaction: each deriver writes its fact, with what it carried. */
export async function deriveInWriter(tx: Queryable, reading: PersistedReading, carried: Carried): Promise<void> {
  for (const d of derivers) await d.inWriter?.(tx, reading, carried[d.name]);
}

/** Phase 3: the passes after the queue drains, made anew for each writer term. */
export function drainPasses(): DrainPass[] {
  return derivers.flatMap((d) => (d.afterDrain ? [d.afterDrain()] : []));
}
