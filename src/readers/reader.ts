/**
 * The contract every reader fulfils: bytes of one file in, the spans
 * (factions) and claims (cells) derived from them out. Readers are pure: no
 * store, no I/O. The ingestion pipeline hashes faction text to keep
 * unchanged spans (and their cells) across re-ingests.
 */
import type { CodeFacts } from "../code/code-facts.js";
import type { FactionType, SourceLocation } from "../vocabulary.js";

export { FACTION_TYPES } from "../vocabulary.js";
export type { FactionType, SourceLocation } from "../vocabulary.js";

/** One span of the file. */
export interface ReadFaction {
  factionType: FactionType;
  /** Media-type-like label of the span's content, e.g. `text/markdown`. */
  inferredType: string;
  location: SourceLocation;
  /** The span's text as it stands in the file (hashed to detect change). */
  text: string;
  /** Headings enclosing the span, outermost first (context for ranking). */
  headingPath: string[];
}

/** One claim cut from a faction. */
export interface ReadCell {
  /** Index into `ReadOutput.factions`. */
  faction: number;
  text: string;
  /** Index into `ReadOutput.cells` of the parent (heading) cell, if any. */
  parent?: number;
  /** Index into `ReadOutput.code.declarations` of the declaration this cell states. */
  declaration?: number;
}

export interface ReadOutput {
  factions: ReadFaction[];
  cells: ReadCell[];
  /** Code intelligence of a source file (code readers only). */
  code?: CodeFacts;
}

export interface ReaderInput {
  /** Normalised project-relative POSIX path. */
  path: string;
  /** Media type of the file (declared or defaulted from the extension). */
  contentType: string;
  bytes: Uint8Array;
}

export interface Reader {
  /** Short stable name, e.g. `markdown`. */
  readonly name: string;
  /** Whether this reader handles the file. Readers are tried in order. */
  accepts(input: Pick<ReaderInput, "path" | "contentType">): boolean;
  read(input: ReaderInput): ReadOutput | Promise<ReadOutput>;
}
