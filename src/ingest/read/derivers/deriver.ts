/**
 * The contract of a derived fact: after a reading's factions and cells are
 * persisted, each deriver (in the order of `index.ts`) writes what follows
 * from them, in the same transaction. A new kind of derived fact is one
 * file and one line in the list.
 */
import type { DocumentEntities } from "../../../entities/spot-document.js";
import type { ReadOutput } from "../../../readers/reader.js";
import type { Queryable } from "../../../store/db.js";

/** The file a reading belongs to. */
export interface ReadTarget {
  projectId: string;
  fileId: string;
}

/** Ids the reading gave its factions and cells, by index in the output. */
export interface ReadingIds {
  factionIds: readonly string[];
  cellIds: readonly string[];
}

/** A reading as persisted: the file, what the reader said, and the ids it was stored under. */
export interface PersistedReading {
  file: ReadTarget;
  output: ReadOutput;
  ids: ReadingIds;
  /** Timestamp of the transaction. */
  now: string;
  /** The document's entities, when the reader thread spotted them already. */
  spotted?: DocumentEntities | undefined;
}

/** One derived fact of a reading. */
export interface Deriver {
  /** Short stable name, e.g. `code-facts`. */
  readonly name: string;
  /** Writes the fact (or leaves it alone when the reading has nothing for it) within `tx`. */
  derive(tx: Queryable, reading: PersistedReading): Promise<void>;
}
