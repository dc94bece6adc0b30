/**
 * The kind of a capitalised name: person, organization, place, event,
 * concept or (the default for named things in technical text) product.
 */
import type { MentionKind } from "./entity-mention.js";
import { hasNameShape, isAcronym } from "./name-shape.js";
import type { WordTags } from "./word-tags.js";
import { tagsOf } from "./word-tags.js";
import { CONCEPT_ACRONYMS, CONCEPT_HEADS, EVENT_HEADS, ORG_SUFFIXES } from "./word-lists.js";

const PLACE_TAGS = ["Place", "Country", "City", "Region", "Address"];

/** What the words around a name say about it. */
export interface NameContext {
  /** The name follows "by", sits in an Authors section, or continues a list of people. */
  personCue: boolean;
}

function lastWord(words: readonly string[]): string {
  return (words.at(-1) ?? "").replace(/\.$/, "").toLowerCase();
}

/** Two or three plain capitalised words, the shape of a personal name. */
function hasPersonShape(words: readonly string[]): boolean {
  if (words.length < 2 || words.length > 3) return false;
  return words.every((w) => /^\p{Lu}[\p{Ll}'’-]+$/u.test(w) && !hasNameShape(w));
}

function isPerson(words: readonly string[], tags: WordTags, context: NameContext): boolean {
  if (!hasPersonShape(words)) return false;
  if (context.personCue) return true;
  const first = tagsOf(tags, words[0] ?? "");
  const last = tagsOf(tags, words.at(-1) ?? "");
  return first.has("FirstName") || (first.has("Person") && last.has("Person")) || (last.has("LastName") && first.has("ProperNoun"));
}

function isPlace(words: readonly string[], tags: WordTags): boolean {
  return words.every((w) => PLACE_TAGS.some((t) => tagsOf(tags, w).has(t)));
}

/** Tagged as an organisation throughout, and not a product named after its maker ("Cloudflare Workers"). */
function isOrganization(words: readonly string[], tags: WordTags): boolean {
  const last = words.at(-1) ?? "";
  if (isAcronym(last) || tagsOf(tags, last).has("Plural")) return false;
  return words.every((w) => tagsOf(tags, w).has("Organization"));
}

function isConcept(words: readonly string[]): boolean {
  const last = lastWord(words);
  if (words.length === 1) return /^[A-Z]{2,}/.test(words[0] ?? "") && CONCEPT_ACRONYMS.has(last.replace(/v?\d[\w.]*$/, ""));
  return CONCEPT_HEADS.has(last) || CONCEPT_ACRONYMS.has(last);
}

/** The kind of a name made of `words` (already cleaned, in their original case). */
export function nameKind(words: readonly string[], tags: WordTags, context: NameContext): MentionKind {
  const last = lastWord(words);
  if (words.length >= 2 && (EVENT_HEADS.has(last) || words.some((w) => /^(?:19|20)\d\d$/.test(w)))) return "event";
  if (words.length >= 2 && ORG_SUFFIXES.has(last)) return "organization";
  if (isPerson(words, tags, context)) return "person";
  if (isPlace(words, tags)) return "place";
  // "Cloudflare Workers", "AWS Lambda": a product named after its maker.
  if (isOrganization(words, tags)) return "organization";
  if (isConcept(words)) return "concept";
  return "product";
}
