/**
 * The subject of a heading: "Installing Hono" → `Hono`, "Rate limits" →
 * the concept `rate limit`, "An Overview of Valgrind" → `Valgrind`.
 * Headings that name a part of the document ("Usage", "Authors") or ask a
 * how-to question name nothing.
 */
import { singularWord } from "./normalize-name.js";
import { cleanName, isGenericName, isPlausibleName } from "./clean-name.js";
import type { EntityMention } from "./entity-mention.js";
import { nameKind } from "./name-kind.js";
import { hasNameShape, isCapitalised } from "./name-shape.js";
import { isKnownWord, tagsOf, tagWords } from "./word-tags.js";
import { GENERIC_HEADS, HEADING_LEADS, STOPWORDS } from "./word-lists.js";

const NUMBERING = /^(?:(?:chapter|section|part|step|appendix|lesson)\s+)?(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.)\s*[:.)-]?\s+/i;
const QUESTION = /^(?:how|why|when|where|which|can|could|do|does|did|should|is|are|will|would)\b/i;
const DEFINING_QUESTION = /^(?:what|who)\s+(?:is|are)\s+(.+)$/i;
const WORD = /^[\p{L}\p{N}][\p{L}\p{N}'’+#.@_-]*$/u;
const MAX_WORDS = 4;
/** Longer everyday-word headings are titles of sections, not names of concepts. */
const MAX_CONCEPT_WORDS = 3;

/** A heading in capitals throughout ("WORKED EXAMPLE") is read in lower case: its capitals say nothing. */
function readableCase(heading: string): string {
  const text = heading.trim();
  return /\p{Ll}/u.test(text) || !/\p{Lu}{6,}/u.test(text) ? text : text.toLowerCase();
}

/** Removes the lead words that introduce the subject ("Installing", "Using and understanding the"). */
function stripLeads(words: string[]): string[] {
  let rest = words;
  for (let changed = true; changed && rest.length > 0; ) {
    changed = false;
    for (let n = Math.min(4, rest.length - 1); n >= 1; n--) {
      const lead = rest.slice(0, n).join(" ").toLowerCase();
      if (HEADING_LEADS.has(lead) || STOPWORDS.has(lead)) {
        rest = rest.slice(n);
        changed = true;
        break;
      }
    }
  }
  return rest;
}

/** "Accessing Node.js API" → "Node.js API": a heading opened by an action names its object. */
function stripGerund(words: string[]): string[] {
  const first = words[0] ?? "";
  if (words.length < 2 || !/^\p{Lu}?\p{Ll}+ing$/u.test(first)) return words;
  return tagsOf(tagWords(words.join(" ")), first).has("Gerund") ? stripLeads(words.slice(1)) : words;
}

/** The heading's subject words: numbering, question form and lead words removed, cut before a function word. */
function subjectWords(heading: string): string[] | undefined {
  let text = readableCase(heading).replace(NUMBERING, "").replace(/[?:!.]+$/, "").trim();
  const defining = DEFINING_QUESTION.exec(text);
  if (defining?.[1] !== undefined) text = defining[1];
  else if (QUESTION.test(text)) return undefined;
  const words = stripGerund(stripLeads(text.split(/\s+/)));
  const cut = words.findIndex((w, i) => i > 0 && STOPWORDS.has(w.toLowerCase()) && w !== "&");
  const subject = cut > 0 ? words.slice(0, cut) : words;
  if (subject.length === 0 || subject.length > MAX_WORDS || !subject.every((w) => WORD.test(w))) return undefined;
  return subject;
}

/** Whether a heading word is a proper name rather than a title-cased everyday word. */
function isNameWord(word: string): boolean {
  return hasNameShape(word) || (isCapitalised(word) && !isKnownWord(word));
}

/** A concept named by everyday words: lower-cased unless name-shaped, last word singular. */
function conceptName(words: readonly string[]): string {
  const lowered = words.map((w) => (hasNameShape(w) ? w : w.toLowerCase()));
  const last = lowered.at(-1) ?? "";
  return [...lowered.slice(0, -1), /^[a-z]+$/.test(last) ? singularWord(last) : last].join(" ");
}

/** The mention a heading's subject makes, if any. */
export function headingMentions(original: string): EntityMention[] {
  const heading = readableCase(original);
  const words = subjectWords(heading);
  if (words === undefined) return [];
  const phrase = cleanName(words.join(" "));
  if (!isPlausibleName(phrase) || isGenericName(phrase)) return [];
  const tags = tagWords(heading);
  const last = words.at(-1) ?? "";
  const lastTags = tagsOf(tags, last);
  // The heading's first word is capitalised wherever it stands.
  const opens = heading.replace(NUMBERING, "").trim().startsWith(words[0] ?? "");
  const names = words.filter((w, i) => (i === 0 && opens ? hasNameShape(w) : isNameWord(w)));
  if (names.length === words.length) {
    return [{ name: phrase, kind: nameKind(words, tags, { personCue: false }), source: "heading" }];
  }
  if (words.length === 1 && opens && isNameWord(phrase)) {
    return [{ name: phrase, kind: nameKind(words, tags, { personCue: false }), source: "heading", hint: "sentence-start" }];
  }
  if (GENERIC_HEADS.has(last.toLowerCase()) || (!lastTags.has("Noun") && !hasNameShape(last))) return [];
  if (words.length === 1 && (lastTags.has("Adjective") || lastTags.has("Verb"))) return [];
  if (names.length === 0 && words.length > MAX_CONCEPT_WORDS) return [];
  const name = names.length > 0 ? phrase : conceptName(words);
  return [{ name, kind: "concept", source: "heading" }];
}
