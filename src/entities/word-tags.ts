/**
 * Part-of-speech and name tags from the English tagger (compromise): which
 * words of a sentence are first names, organisations, places, verbs …
 */
import { createRequire } from "node:module";
import type Nlp from "compromise/two";
import { singularWord } from "./normalize-name.js";

let tagger: typeof Nlp | undefined;

/**
 * The tagger, loaded on first use. Loading it takes a fifth of a second,
 * which every `pks` start would pay (an MCP client spawns one per session)
 * while most never tag a word: reader threads spot names, and the main
 * thread only spots a reading that reached it unspotted. Spotting is
 * synchronous code run word by word, so the load is a synchronous `require`
 * of the package's CommonJS build (the same release as its ES module, with
 * the same tags), not an `import()`. The build is `compromise/two`, the
 * tagger without the phrase chunker the full build runs after it: the same
 * word list and the same tags (test/unit/entities/word-tags.test.ts), and
 * one step less for every text.
 */
function nlp(): typeof Nlp {
  tagger ??= createRequire(import.meta.url)("compromise/two") as typeof Nlp;
  return tagger;
}

/** Tags of each word of a text, looked up by the word in lower case. */
export interface WordTags {
  get(word: string): ReadonlySet<string> | undefined;
}

const NO_TAGS: ReadonlySet<string> = new Set();

/** A term of the tagger's document: its text as written and its tags. */
interface Term {
  text: string;
  tags: Set<string>;
}

let taggedSentences = 0;

/** How many sentences this thread has run the tagger on: what the memos save is counted by it (tests, benchmarks). */
export function sentencesTagged(): number {
  return taggedSentences;
}

/**
 * Tags of each word of one sentence, merged over its occurrences. The
 * tagger's document is read directly (sentences of terms) rather than
 * through `.json()`, which copies every term and its tags first.
 */
function tagSentence(sentence: string): Map<string, Set<string>> {
  taggedSentences += 1;
  const tags = new Map<string, Set<string>>();
  for (const terms of nlp()(sentence).docs as unknown as Term[][]) {
    for (const term of terms) {
      const key = term.text.toLowerCase();
      const set = tags.get(key);
      if (set === undefined) tags.set(key, new Set(term.tags));
      else for (const tag of term.tags) set.add(tag);
    }
  }
  return tags;
}

/** How many sentences keep their tags: a document spotted again (a re-read, a cell settled twice) meets its sentences again. */
const RECENT_SENTENCES = 4_096;
const recent = new Map<string, Map<string, Set<string>>>();

/** The tags of a sentence, from the sentences tagged lately when it is one of them. */
function sentenceTags(sentence: string): Map<string, Set<string>> {
  const known = recent.get(sentence);
  if (known !== undefined) {
    recent.delete(sentence);
    recent.set(sentence, known);
    return known;
  }
  const tags = tagSentence(sentence);
  recent.set(sentence, tags);
  if (recent.size > RECENT_SENTENCES) recent.delete(recent.keys().next().value as string);
  return tags;
}

interface Tokenizer {
  one: { tokenize: { splitSentences(text: string, world: unknown): string[] } };
}

/** `text` cut into sentences by the tagger's own splitter, the cut it makes before tagging. */
function sentencesOf(text: string): string[] {
  const tagger = nlp();
  return (tagger.methods() as unknown as Tokenizer).one.tokenize.splitSentences(text, tagger.world());
}

/**
 * Tags the words of `text` in context. The tagger tags each sentence on
 * its own, so a word's tags are those it has in the sentences that contain
 * it: only those are tagged, on the first look-up of the word. Many cells
 * (code, plain lower-case prose) never ask, and a long cell asked about one
 * name has one sentence tagged.
 */
export function tagWords(text: string): WordTags {
  return tagsInSentences(() => sentencesOf(text), (word) => word);
}

/** A sentence as tagged, and in lower case to find words in. */
interface Sentence {
  text: string;
  lower: string;
}

const sentence = (text: string): Sentence => ({ text, lower: text.toLowerCase() });

/**
 * Tags of each word looked up, merged over the sentences that hold it
 * (`keyOf` gives the word as the sentences spell it). The sentences are
 * made on the first look-up.
 */
function tagsInSentences(sentencesOfText: () => string[], keyOf: (word: string) => string): WordTags {
  let sentences: Sentence[] | undefined;
  const words = new Map<string, Set<string> | undefined>();
  return {
    get(word) {
      if (words.has(word)) return words.get(word);
      sentences ??= sentencesOfText().map(sentence);
      const key = keyOf(word);
      let tags: Set<string> | undefined;
      for (const s of sentences) {
        if (!s.lower.includes(key)) continue;
        const found = sentenceTags(s.text).get(key);
        if (found === undefined) continue;
        tags ??= new Set();
        for (const tag of found) tags.add(tag);
      }
      words.set(word, tags);
      return tags;
    },
  };
}

const zeroDigits = (text: string): string => text.replace(/\d/g, "0");

/**
 * Tags the words of a table row's claim (`header: value; header: value`).
 * A row is not a sentence, so each field is tagged on its own with its
 * digits read as zeros: a column of ids, amounts or dates then has a few
 * shapes, each tagged once and kept among the recent sentences, where
 * tagging every row as a sentence asked the tagger once a row (about 3 ms
 * each: a 50,000-row CSV spent minutes there). A field's header stays in
 * its text, so `city: Lima` is tagged with the word that names its column.
 */
export function tagFields(text: string): WordTags {
  return tagsInSentences(() => text.split("; ").map(zeroDigits), zeroDigits);
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
