/**
 * Proper names in prose: runs of capitalised words ("Cloudflare Workers",
 * "O'Reilly & Associates, Inc.", "Taku Amano"), classified with the English
 * tagger's name tags. A capital that only marks the start of a sentence is
 * not trusted on its own.
 */
import { cleanName, isGenericName, isPlausibleName } from "./clean-name.js";
import type { EntityMention, MentionHint, MentionKind } from "./entity-mention.js";
import type { NameContext } from "./name-kind.js";
import { nameKind } from "./name-kind.js";
import { hasNameShape, isCamelCase, isCapitalised, isDotJsName, isFileOrHost, isSnakeCase, isUrl } from "./name-shape.js";
import type { TextToken } from "./text-tokens.js";
import type { WordTags } from "./word-tags.js";
import { isKnownPlaceOrOrganization, isKnownWord, tagsOf } from "./word-tags.js";
import { EVENT_HEADS, PERSON_CUES, STOPWORDS } from "./word-lists.js";

/** A run of capitalised tokens: `[start, end)` into the token list. */
interface Run {
  words: string[];
  start: number;
  end: number;
  initial: boolean;
}

const CONNECTORS = new Set(["of", "&", "de", "von", "van", "der", "du", "la", "le"]);
const ORG_TAILS = /^(?:Inc|Ltd|LLC|Corp|GmbH|AG|PLC|Co)\.?$/;
/** Tags of words that, opening a sentence, are ordinary English rather than a name. */
const ORDINARY_TAGS = ["Verb", "Adverb", "Adjective", "Determiner", "Preposition", "Pronoun", "Conjunction", "QuestionWord", "Plural", "Expression"];
const MAX_RUN = 4;
/** "BSD-style", "Unix-like": adjectives made from names, not names. */
const ADJECTIVE_SUFFIX = /-(?:style|like|based|compatible|specific|powered|driven|friendly|only|aware|enabled|ready|related)$/i;

function isRunWord(token: TextToken): boolean {
  const core = token.core;
  if (core.length === 0 || STOPWORDS.has(core.toLowerCase()) || isUrl(core) || ADJECTIVE_SUFFIX.test(core)) return false;
  if ((isFileOrHost(core) && !isDotJsName(core)) || /\/.*\./.test(core) || /^[a-z].*\//.test(core)) return false;
  if (isSnakeCase(core) || isCamelCase(core) || /[(_/]|\w\.\w/.test(core.replace(/\.js$/, ""))) return false;
  // Capitals for emphasis ("DO NOT BREAK") are not acronyms.
  if (/^[A-Z]{4,}$/.test(core) && isKnownWord(core)) return false;
  return isCapitalised(core) || hasNameShape(core);
}

/** Whether the run may go on from token `i` to the token after it. */
function continues(tokens: readonly TextToken[], i: number): number {
  const here = tokens[i];
  const next = tokens[i + 1];
  if (here === undefined || next === undefined || next.lead.length > 0 || next.initial) return 0;
  if (here.trail === "," && ORG_TAILS.test(next.core)) return 1;
  if (here.trail.length > 0 || /['’]s$/.test(here.core)) return 0;
  if (isRunWord(next)) return 1;
  const after = tokens[i + 2];
  if (CONNECTORS.has(next.core.toLowerCase()) && next.trail.length === 0 && after !== undefined && after.lead.length === 0 && isRunWord(after)) return 2;
  return 0;
}

/** "CSV/TSV", "JSON/YAML/TOML": names joined by slashes, each a run of its own. */
function slashRuns(token: TextToken, i: number): Run[] {
  const parts = token.core.split("/");
  if (parts.length < 2 || !parts.every((p) => p.length > 1 && !p.includes(".") && (isCapitalised(p) || hasNameShape(p)))) return [];
  return parts.map((part, k) => ({ words: [part], start: i, end: i + 1, initial: token.initial && k === 0 }));
}

function collectRuns(tokens: readonly TextToken[]): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i];
    if (first === undefined) continue;
    const slashed = slashRuns(first, i);
    if (slashed.length > 0) runs.push(...slashed);
    if (slashed.length > 0 || !isRunWord(first)) continue;
    const run: Run = { words: [first.core], start: i, end: i + 1, initial: first.initial };
    for (let step = continues(tokens, i); step > 0 && run.words.length < MAX_RUN * 2; step = continues(tokens, i)) {
      for (let k = 1; k <= step; k++) run.words.push(tokens[i + k]?.core ?? "");
      i += step;
      run.end = i + 1;
    }
    // A quoted title ("Pthreads Programming") is capitalised for being a title, not for opening a sentence.
    const quoted = /["“‘']/u.test(first.lead) && /["”’']/u.test(tokens[run.end - 1]?.trail ?? "") && run.words.length > 1;
    runs.push(quoted ? { ...run, initial: false } : run);
  }
  return runs;
}

function isOrdinaryOpening(word: string, tags: WordTags): boolean {
  if (hasNameShape(word)) return false;
  if (word.includes("-") && STOPWORDS.has(word.split("-")[0]?.toLowerCase() ?? "")) return true;
  const own = tagsOf(tags, word);
  return ORDINARY_TAGS.some((t) => own.has(t)) && !own.has("Person") && !own.has("Organization") && !own.has("Place");
}

/**
 * A run too long or repetitive to be one name (badge rows, lists without
 * commas) keeps only its name-shaped words.
 */
function salvageLong(run: Run): Run[] {
  const words = run.words.filter((w) => !CONNECTORS.has(w.toLowerCase()));
  if (words.length <= MAX_RUN && new Set(words).size === words.length) return [run];
  return run.words.filter(hasNameShape).map((word) => ({ words: [word], start: run.start, end: run.end, initial: false }));
}

/** Splits at `&` unless the whole run is an organisation ("Dick Buttlar & Jacqueline Farrell"). */
function splitAmpersand(run: Run, tags: WordTags): Run[] {
  if (!run.words.includes("&") || nameKind(run.words, tags, { personCue: false }) === "organization") return [run];
  const parts: Run[] = [];
  let words: string[] = [];
  for (const word of [...run.words, "&"]) {
    if (word !== "&") words.push(word);
    else if (words.length > 0) {
      parts.push({ ...run, words, initial: run.initial && parts.length === 0 });
      words = [];
    }
  }
  return parts;
}

/** The hint a run earns from where it stands, or `drop` when it cannot be a name. */
function runHint(run: Run, tags: WordTags): MentionHint | "drop" | undefined {
  const single = run.words.length === 1 ? (run.words[0] ?? "") : undefined;
  if (single !== undefined && hasNameShape(single)) return undefined;
  if (run.initial) {
    if (isOrdinaryOpening(run.words[0] ?? "", tags)) return "drop";
    return single !== undefined && !isKnownPlaceOrOrganization(single) ? "sentence-start" : undefined;
  }
  if (single === undefined) return undefined;
  const own = tagsOf(tags, single);
  if (own.has("Demonym") || own.has("Language") || own.has("Adverb")) return "drop";
  return isKnownWord(single) ? "common-word" : undefined;
}

function personCue(tokens: readonly TextToken[], run: Run, personSection: boolean): boolean {
  const before = tokens[run.start - 1]?.core.toLowerCase() ?? "";
  return personSection || PERSON_CUES.has(before);
}

/**
 * What the word after a name says: "the React conference" and "JSConf
 * 2024" are events (the word joins the name), "Python 3.12" is a product.
 */
function cueAfter(run: Run, tokens: readonly TextToken[], words: readonly string[]): { suffix: string; kind?: MentionKind } {
  if (tokens[run.end - 1]?.trail !== "") return { suffix: "" };
  const next = tokens[run.end]?.core ?? "";
  if (EVENT_HEADS.has(next.toLowerCase())) return { suffix: ` ${next.toLowerCase()}`, kind: "event" };
  const hump = /[A-Z][a-z]+$/.exec(words.at(-1) ?? "")?.[0]?.toLowerCase() ?? "";
  if (/^(?:19|20)\d\d$/.test(next) && EVENT_HEADS.has(hump)) return { suffix: ` ${next}`, kind: "event" };
  if (/^v?\d+(?:\.\d+)*(?:\.x)?$/.test(next) && !/^(?:19|20)\d\d$/.test(next)) return { suffix: "", kind: "product" };
  return { suffix: "" };
}

/**
 * Whether only the tagger can settle the run, and only between nothing and
 * a hinted mention: one plain word opening a sentence ("Install", or a name
 * such as "Deno"), or one everyday word capitalised mid-sentence
 * ("Workers"). Such a mention backs no entity on its own, so a caller that
 * sees the whole document asks the tagger only when the document names the
 * same thing elsewhere.
 */
function isUndecided(run: Run): boolean {
  const single = run.words.length === 1 ? (run.words[0] ?? "") : undefined;
  if (single === undefined || hasNameShape(single)) return false;
  if (!run.initial) return isKnownWord(single);
  return !(single.includes("-") && STOPWORDS.has(single.split("-")[0]?.toLowerCase() ?? "")) && !isKnownPlaceOrOrganization(single);
}

/** Receives the names {@link properNameMentions} leaves undecided (see {@link isUndecided}). */
export type Undecided = (name: string) => void;

function mentionOf(run: Run, tokens: readonly TextToken[], tags: WordTags, context: NameContext, undecided?: Undecided): EntityMention | undefined {
  let words = run.words;
  if (run.initial && words.length > 1 && isOrdinaryOpening(words[0] ?? "", tags)) {
    words = words.slice(1);
    // What is left of a title-cased phrase ("Batteries Included") is no name either.
    if (words.length === 1 && !hasNameShape(words[0] ?? "") && isKnownWord(words[0] ?? "")) return undefined;
  }
  const { suffix, kind: cued } = cueAfter(run, tokens, words);
  // What the tagger cannot change is tested before it runs.
  if (words.every((w) => isGenericName(w) || STOPWORDS.has(w.toLowerCase()) || CONNECTORS.has(w))) return undefined;
  const name = cleanName(`${words.join(" ")}${suffix}`);
  if (!isPlausibleName(name)) return undefined;
  if (undecided !== undefined && cued === undefined && !name.includes(" ") && isUndecided(run)) {
    undecided(name);
    return undefined;
  }
  // An event cue or a version number says "name" whatever the capital says.
  const hint = cued !== undefined ? undefined : runHint({ ...run, words, initial: run.initial && words === run.words }, tags);
  if (hint === "drop") return undefined;
  const kind = cued ?? nameKind(name.split(" "), tags, context);
  const mention: EntityMention = { name, kind, source: "nlp" };
  return hint === undefined ? mention : { ...mention, hint };
}

/**
 * Mentions of capitalised names among `tokens`. `personSection`: the cell
 * sits under a heading such as "Authors", where plain two-word names are
 * people. With `undecided`, single words that would only make a hinted
 * mention are handed to it instead of to the tagger; the mentions returned
 * are then those without it, less those words.
 */
export function properNameMentions(tokens: readonly TextToken[], tags: WordTags, personSection: boolean, undecided?: Undecided): EntityMention[] {
  const mentions: EntityMention[] = [];
  let previousPerson = -1;
  const runs = collectRuns(tokens).flatMap((whole) => splitAmpersand(whole, tags)).flatMap(salvageLong);
  for (const run of runs) {
    const listed = previousPerson >= 0 && previousPerson >= run.start - 2;
    const mention = mentionOf(run, tokens, tags, { personCue: listed || personCue(tokens, run, personSection) }, undecided);
    if (mention === undefined) continue;
    mentions.push(mention);
    if (mention.kind === "person") previousPerson = run.end;
  }
  return mentions;
}
