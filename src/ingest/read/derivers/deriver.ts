/**
 * The contract of a derived fact: what follows from a reading, in up to
 * three phases, each optional —
 *
 * 1. `inReader`, in the reader thread, beside the reader: CPU work on the
 *    bytes and the reader's output (spotting names). Its answer is plain
 *    data; it crosses to the writer thread by structured clone, under the
 *    deriver's name, and comes back to the same deriver as `carried`.
 * 2. `inWriter`, in the writer's transaction that persists the reading,
 *    after its factions and cells: the rows that follow from them.
 * 3. `afterDrain`, in the writer thread once the reading queue went quiet:
 *    a pass over the files each project's batch settled (typing).
 *
 * The derivers are one list (`index.ts`), run in its order in every
 * phase. A new kind of derived fact is one file and one line in the list:
 * nothing else carries or calls it.
 */
import type { Clock } from "../../../core/tools.js";
import type { ReadOutput } from "../../../readers/reader.js";
import type { Db, Queryable } from "../../../store/db.js";

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

/**
 * Which cells a reading changed: the ones it added and retired, and the
 * kept cells of factions whose heading path moved (their context changed).
 * `whole` when the file had no live cell kept.
 */
export interface CellChanges {
  whole: boolean;
  added: string[];
  retired: string[];
  recontexted: string[];
}

/** What the reader thread worked out for the derivers, by deriver name (plain data). */
export type Carried = Readonly<Record<string, unknown>>;

/** A reading in the reader thread: the file read and what the reader said. */
export interface ReaderSide {
  path: string;
  bytes: Uint8Array;
  output: ReadOutput;
}

/** A reading as persisted: the file, what the reader said, the ids it was stored under, and what it changed. */
export interface PersistedReading {
  file: ReadTarget;
  output: ReadOutput;
  ids: ReadingIds;
  changes: CellChanges;
  /** Timestamp of the transaction. */
  now: string;
}

/** The files each project's readings settled since the last pass, by project id. */
export type Touched = ReadonlyMap<string, ReadonlySet<string>>;

/** A pass after reading, made once per writer term so it may keep what it learned between passes. */
export type DrainPass = (db: Db, touched: Touched, clock: Clock) => Promise<void>;

/** One derived fact of a reading; `C` is what its reader-thread phase carries to its writer phase. */
export interface Deriver<C = unknown> {
  /** Short stable name, e.g. `code-facts`; also the key of what it carries. */
  readonly name: string;
  /** Phase 1, in the reader thread: answers what to carry (undefined: nothing). */
  inReader?(reading: ReaderSide): C | undefined;
  /** Phase 2, in the writer's transaction: writes the fact within `tx`, or leaves it alone when the reading has nothing for it. */
  inWriter?(tx: Queryable, reading: PersistedReading, carried: C | undefined): Promise<void>;
  /** Phase 3: makes the pass run after the reading queue drains. */
  afterDrain?(): DrainPass;
}
