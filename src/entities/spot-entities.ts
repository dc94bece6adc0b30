/**
 * Spots the entities one cell of a document mentions: names found by the
 * English tagger, heading subjects, defined terms and aliases, and code
 * identifiers. Precision first: a name is only reported when its spelling,
 * position or wording says it is one.
 */
import { normalizeName } from "./normalize-name.js";
import { codeBlockMentions } from "./code-block-mentions.js";
import { codeSpanMention, codeSpans, codeWordMention } from "./code-mentions.js";
import { definitionMentions } from "./definition-mentions.js";
import type { EntityMention, MentionSource, SpotInput } from "./entity-mention.js";
import { headingMentions } from "./heading-mentions.js";
import { properNameMentions } from "./proper-name-mentions.js";
import type { Undecided } from "./proper-name-mentions.js";
import { textTokens } from "./text-tokens.js";
import { toolMentions } from "./tool-mentions.js";
import { tagFields, tagWords } from "./word-tags.js";
import { PERSON_SECTIONS } from "./word-lists.js";

export type { EntityMention, MentionKind, MentionSource, SpotInput } from "./entity-mention.js";

/**
 * How much of a span's raw text is read. A cell is at most a few thousand
 * characters, but its span can be a whole file's worth of one paragraph or
 * code block, read again for each of its cells.
 */
const MAX_RAW_CHARS = 20_000;

/** When one cell names a thing twice, the mention from the more telling rule is kept. */
const SOURCE_RANK: Record<MentionSource, number> = { code: 0, definition: 1, heading: 2, nlp: 3 };

function rank(m: EntityMention): number {
  return (m.hint === undefined ? 0 : 10) + SOURCE_RANK[m.source];
}

/** What makes two mentions of one cell the same: the name, and the name it is declared an alias of. */
function dedupeKey(m: Pick<EntityMention, "name" | "aliasOf">): string {
  return `${normalizeName(m.name) || m.name}\u0000${m.aliasOf === undefined ? "" : normalizeName(m.aliasOf)}`;
}

/** One mention per name (and alias declaration), the most telling first. */
function dedupe(mentions: readonly EntityMention[]): EntityMention[] {
  const kept = new Map<string, EntityMention>();
  for (const m of [...mentions].sort((a, b) => rank(a) - rank(b))) {
    const key = dedupeKey(m);
    if (!kept.has(key)) kept.set(key, m);
  }
  return [...kept.values()];
}

/** The code spans of the last span text read: a span's cells come one after another, each asking for them. */
let lastSpans: { raw: string; spans: string[] } | undefined;

function spansOf(raw: string): string[] {
  if (lastSpans?.raw !== raw) lastSpans = { raw, spans: codeSpans(raw) };
  return lastSpans.spans;
}

/** Code spans of the raw span text that this cell's text contains. */
function codeSpanMentions(cell: SpotInput): EntityMention[] {
  const raw = cell.factionText !== undefined && cell.factionText.length <= MAX_RAW_CHARS ? cell.factionText : cell.text;
  const spans = spansOf(raw);
  return spans.filter((s) => cell.text.includes(s.trim())).flatMap((s) => codeSpanMention(s) ?? []);
}

/** Sentences and clauses in which a definition can open, without a leading conjunction. */
function clauses(text: string): string[] {
  return text
    .split(/(?<=[.!?;:])\s+|\s+[-–—]\s+(?=\p{Lu})/u)
    .map((s) => s.replace(/^(?:and|but|or|so|then|while|whereas)\s+/i, "").trim())
    .filter((s) => s.length > 0);
}

/**
 * The whole code of a block: a fenced span's lines without the fences; for
 * any other span (HTML markup, indented code) the cell text.
 */
function codeOf(cell: SpotInput): string {
  const raw = cell.factionText?.slice(0, MAX_RAW_CHARS).trim() ?? "";
  const fence = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:\n\1[`~]*)?$/.exec(raw);
  return fence?.[2] ?? cell.text;
}

function inPersonSection(headingPath: readonly string[]): boolean {
  return headingPath.some((h) => PERSON_SECTIONS.has(h.replace(/^[\d.\s]+/, "").trim().toLowerCase()));
}

function proseMentions(cell: SpotInput, text: string, undecided?: Undecided): EntityMention[] {
  const tokens = textTokens(text);
  const tags = cell.factionType === "row" ? tagFields(text) : tagWords(text);
  const found = [...codeSpanMentions(cell), ...tokens.flatMap((t) => codeWordMention(t.core) ?? []), ...toolMentions(tokens, tags)];
  found.push(...properNameMentions(tokens, tags, inPersonSection(cell.headingPath), undecided));
  for (const clause of clauses(text)) found.push(...definitionMentions(clause, tags));
  return found;
}

/**
 * The entities a cell mentions. Code blocks yield their API names and the
 * programs they run; headings yield their subject; prose yields names,
 * definitions, aliases and code identifiers. Symbols (`kind: "symbol"`) are
 * to be resolved against the project's code symbols by name.
 */
export function spotEntities(cell: SpotInput): EntityMention[] {
  const text = cell.text.trim();
  if (text.length === 0) return [];
  if (cell.factionType === "code_block") return dedupe(codeBlockMentions(codeOf(cell)));
  if (cell.isHeading) {
    const code = textTokens(text).flatMap((t) => codeWordMention(t.core) ?? []);
    return dedupe([...codeSpanMentions(cell), ...code, ...headingMentions(text)]);
  }
  return dedupe(proseMentions(cell, text));
}

/** What {@link spotUndecided} answers for one cell. */
export interface UndecidedSpotting {
  /** The cell's mentions, less the single words in `undecided`. */
  mentions: EntityMention[];
  /** Names the tagger was not asked about (see {@link properNameMentions}). */
  undecided: string[];
}

/**
 * {@link spotEntities} without asking the tagger about single capitalised
 * words that could only yield a hinted mention (a sentence opener, an
 * everyday word). A mention with a hint backs no entity by itself: the
 * caller asks {@link spotEntities} for the cell's full answer when some
 * other mention of the document shares one of `undecided`'s names. When a
 * mention of the cell itself shares one, the answer is already the full one.
 */
export function spotUndecided(cell: SpotInput): UndecidedSpotting {
  const text = cell.text.trim();
  if (text.length === 0 || cell.factionType === "code_block" || cell.isHeading) return { mentions: spotEntities(cell), undecided: [] };
  const undecided: string[] = [];
  const mentions = dedupe(proseMentions(cell, text, (name) => undecided.push(name)));
  if (undecided.length === 0) return { mentions, undecided };
  const own = new Set(mentions.map(dedupeKey));
  if (undecided.some((name) => own.has(dedupeKey({ name })))) return { mentions: spotEntities(cell), undecided: [] };
  return { mentions, undecided };
}
