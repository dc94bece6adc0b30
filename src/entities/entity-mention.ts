/**
 * What the entity spotter finds in one cell of a document: names, each with
 * a kind (DECISIONS.md vocabulary) and the rule that found it.
 */

/** Kinds a document mention can take (a subset of the entity kinds). */
export const MENTION_KINDS = ["person", "organization", "product", "place", "event", "concept", "symbol"] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

/** Which rule found the mention. */
export type MentionSource = "nlp" | "heading" | "definition" | "code";

/**
 * Why a mention alone is not enough to make an entity. `sentence-start`: a
 * capitalised word that may be capitalised only because a sentence starts
 * there. `common-word`: a capitalised everyday word, which may be emphasis.
 */
export type MentionHint = "sentence-start" | "common-word";

/** One name spotted in a cell. */
export interface EntityMention {
  name: string;
  kind: MentionKind;
  source: MentionSource;
  /** Set when the text declares this name another name of `aliasOf` ("X, also called Y", "Long Name (LN)"). */
  aliasOf?: string;
  /** Set when the mention needs support from elsewhere to count (see {@link MentionHint}). */
  hint?: MentionHint;
}

/** A cell as the spotter sees it. */
export interface SpotInput {
  /** The cell's plain text (markup already stripped). */
  text: string;
  /** Whether the cell is a heading. */
  isHeading: boolean;
  /** Headings enclosing the cell, outermost first. */
  headingPath: readonly string[];
  /** The faction type of the cell's span (`text`, `list`, `code_block` …). */
  factionType: string;
  /** The span's raw text, when known: keeps the code marks (backticks, `<code>`) that the cell text lost. */
  factionText?: string;
}
