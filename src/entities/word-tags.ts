/**
 * Part-of-speech and name tags from the English tagger (compromise): which
 * words of a sentence are first names, organisations, places, verbs …
 */
import { createRequire } from "node:module";
import type Nlp from "compromise";
import { singularWord } from "./normalize-name.js";

let tagger: typeof Nlp | undefined;

/**
 * The tagger, loaded on first use. Loading it takes a third of a second,
 * which every `pks` start would pay (an MCP client spawns one per session)
 * while most never tag a word: reader threads spot names, and the main
 * thread only spots a reading that reached it unspotted. Spotting is
 * synchronous code run word by word, so the load is a synchronous `require`
 * of the package's CommonJS build (the same release as its ES module, with
 * the same tags), not an `import()`.
 */
function nlp(): typeof Nlp {
  tagger ??= createRequire(import.meta.url)("compromise") as typeof Nlp;
  return tagger;
}

/** Tags of each word of a text, looked up by the word in lower case. */
export interface WordTags {
  get(word: string): ReadonlySet<string> | undefined;
}

const NO_TAGS: ReadonlySet<string> = new Set();

function termList(json: unknown): { text: string; tags: string[] }[] {
  if (!Array.isArray(json)) return [];
  const out: { text: string; tags: string[] }[] = [];
  for (const sentence of json) {
    const terms: unknown = (sentence as { terms?: unknown }).terms;
    if (!Array.isArray(terms)) continue;
    for (const term of terms as { text?: unknown; tags?: unknown }[]) {
      if (typeof term.text !== "string" || !Array.isArray(term.tags)) continue;
      out.push({ text: term.text, tags: term.tags.filter((t): t is string => typeof t === "string") });
    }
  }
  return out;
}

function tagAll(text: string): Map<string, Set<string>> {
  const tags = new Map<string, Set<string>>();
  for (const term of termList(nlp()(text).json({ terms: { text: true, tags: true } }))) {
    const key = term.text.toLowerCase();
    const set = tags.get(key) ?? new Set<string>();
    for (const tag of term.tags) set.add(tag);
    tags.set(key, set);
  }
  return tags;
}

/**
 * Tags the words of `text` in context. The tagger runs on the first
 * look-up only: many cells (code, plain lower-case prose) never need it.
 */
export function tagWords(text: string): WordTags {
  let tags: Map<string, Set<string>> | undefined;
  return {
    get(word) {
      tags ??= tagAll(text);
      return tags.get(word);
    },
  };
}

/** The tags of one word, or none. */
export function tagsOf(tags: WordTags, word: string): ReadonlySet<string> {
  return tags.get(word.toLowerCase()) ?? NO_TAGS;
}

let lexicon: ReadonlyMap<string, string> | undefined;

function loadLexicon(): ReadonlyMap<string, string> {
  const model: unknown = nlp().model();
  const words: unknown = (model as { one?: { lexicon?: unknown } }).one?.lexicon;
  const entries = words !== null && typeof words === "object" ? Object.entries(words) : [];
  const tags = new Map<string, string>();
  for (const [word, tag] of entries) {
    if (typeof tag === "string") tags.set(word, tag);
    else if (Array.isArray(tag)) tags.set(word, tag.filter((t) => typeof t === "string").join(","));
  }
  return tags;
}

/** Lexicon tags of names rather than everyday words. */
const NAME_TAGS = /\b(?:City|Country|Region|Place|Organization|SportsTeam|Person|FirstName|LastName|MaleName|FemaleName|ProperNoun)\b/;
/** Lexicon tags of names of places and organisations: a capital at a sentence start still means a name. */
const PLACE_OR_ORG_TAGS = /\b(?:City|Country|Region|Place|Organization|SportsTeam)\b/;

/** The tagger's own tag for a word it knows by heart (`issue` → `Singular`), if any. */
export function lexiconTag(word: string): string | undefined {
  lexicon ??= loadLexicon();
  return lexicon.get(word.toLowerCase());
}

function isEveryday(tag: string | undefined): boolean {
  return tag !== undefined && !NAME_TAGS.test(tag);
}

/** Whether the tagger knows the word or its singular by heart as an everyday English word (not a name). */
export function isKnownWord(word: string): boolean {
  const lower = word.toLowerCase();
  return isEveryday(lexiconTag(lower)) || isEveryday(lexiconTag(singularWord(lower)));
}

/** Whether the tagger knows the word by heart as a place or an organisation (`Paris`, `Google`). */
export function isKnownPlaceOrOrganization(word: string): boolean {
  return PLACE_OR_ORG_TAGS.test(lexiconTag(word) ?? "");
}
