/**
 * The derived facts of a reading, written in this order after its factions
 * and cells: the code index before the links that need its symbols.
 */
import { codeFactsDeriver } from "./code-facts.js";
import type { Deriver } from "./deriver.js";
import { documentEntitiesDeriver } from "./document-entities.js";
import { symbolMentionsDeriver } from "./symbol-mentions.js";

export type { Deriver, PersistedReading, ReadingIds, ReadTarget } from "./deriver.js";

/** Every deriver, in the order they run. */
export const derivers: readonly Deriver[] = [codeFactsDeriver, documentEntitiesDeriver, symbolMentionsDeriver];
