/**
 * The short span of a clause that answers a string field, found from where
 * the field's words stand — never the whole sentence:
 *
 * - after a copula or setting verb: "The default log level is info",
 *   "It defaults to `*`", "owner: Dana Reyes";
 * - a value-like token right after the field's words (apposition): "the
 *   health check path `/healthz`";
 * - the object of a preposition after them: "keys are hashed with
 *   SHA-256 before storage", "owned by Dana Reyes";
 * - a modifier between a determiner and the field's noun: "the main
 *   branch", "the eu-west-1 region".
 *
 * A span ends at punctuation or at a word that starts a new phrase
 * (`before`, `when`, `every` …). Each candidate carries a quality: how
 * much its rule and its look (digits, capitals, symbols: a name or a value,
 * not prose) say it is the answer; a span that repeats the field's own
 * words, or describes rather than names, scores low.
 */
import type { Clause, Word } from "./evidence-text.js";
import type { ClauseMatch } from "./clause-match.js";
import { stem } from "./field-terms.js";
import { identifierParts } from "../query-terms.js";

export interface Span {
  text: string;
  quality: number;
}

/** Verbs and phrases after which the value follows: "is", "defaults to", "is set to", "=", ":". */
const COPULAS = [["defaults", "to"], ["default", "to"], ["default", "is"], ["is", "set", "to"], ["are", "set", "to"], ["set", "to"], ["equals"], ["is"], ["are"], ["was"], ["were"], ["becomes"]];
/** Prepositions whose object names how or by whom: "hashed with X", "owned by X". */
const PREPOSITIONS = new Set(["with", "using", "by", "via", "as", "in", "on", "at", "from", "to", "into", "under", "through", "called", "named"]);
/** Words that begin a new phrase: a span stops before them. */
const SPAN_ENDS = new Set([
  "before", "after", "when", "whenever", "while", "if", "unless", "because", "since", "until", "every", "each", "per", "so", "and", "but", "or",
  "which", "that", "who", "whom", "where", "for", "with", "by", "from", "at", "in", "on", "to", "of", "than", "then", "behind", "during", "once",
]);
const DETERMINERS = new Set(["the", "a", "an", "its", "their", "our", "this", "that", "these", "those", "your", "his", "her"]);
/** Nouns that name a setting rather than its value: skipped between the field's words and the copula ("the origin option defaults to"). */
const SETTING_NOUNS = new Set(["option", "options", "setting", "settings", "header", "field", "value", "parameter", "variable", "flag", "property", "key", "number", "name", "address", "code", "id"]);
/** Irregular participles ("is written as", "is kept for"): a passive, not a value. */
const PARTICIPLES_EN = new Set(["been", "broken", "chosen", "done", "driven", "given", "hidden", "kept", "known", "made", "built", "run", "seen", "sent", "set", "shown", "taken", "written", "held", "read", "stored", "used"]);
/** Prepositions that make a lone word before them a predicate ("responsible for", "able to", "aware of"). */
const PREDICATE_PREPOSITIONS = new Set(["for", "to", "of", "with", "about", "from", "in", "on", "at"]);
const PRONOUNS = new Set(["it", "this", "they", "these", "that"]);
const SKIPPED_ADVERBS = new Set(["also", "always", "still", "now", "currently", "usually", "normally", "simply", "then"]);

function lowerAt(words: readonly Word[], i: number): string {
  return words[i]?.lower ?? "";
}

/** Whether the text between two words is only spaces (no punctuation stands between them). */
function adjacent(clause: Clause, a: number, b: number): boolean {
  const left = clause.words[a];
  const right = clause.words[b];
  return !!left && !!right && /^\s+$/.test(clause.text.slice(left.end, right.start));
}

/** A copula starting at word `i`: the number of words it spans, or 0. */
function copulaAt(words: readonly Word[], i: number): number {
  for (const c of COPULAS) if (c.every((w, k) => lowerAt(words, i + k) === w)) return c.length;
  return 0;
}

/** Looks like a value or a name, not prose: digits, inner capitals, symbols, an all-caps word. */
export function valueLike(text: string): boolean {
  return /[\d/@*_#.:=-]/.test(text) || /^[A-Z0-9]{2,}$/.test(text) || /\p{Lu}/u.test(text.slice(1));
}

/** Reads a span from word `i` on: leading determiners dropped, up to a phrase end or punctuation, at most 8 words. */
function spanFrom(clause: Clause, i: number, field: ReadonlySet<number>): { text: string; repeatsField: boolean; predicate?: boolean } | undefined {
  const { words } = clause;
  while (i < words.length && (DETERMINERS.has(lowerAt(words, i)) || SKIPPED_ADVERBS.has(lowerAt(words, i)))) i++;
  if (i >= words.length) return undefined;
  let j = i;
  while (j + 1 < words.length && j - i < 7 && !SPAN_ENDS.has(lowerAt(words, j + 1)) && adjacent(clause, j, j + 1)) j++;
  const text = clause.text.slice(words[i]!.start, words[j]!.end);
  let repeatsField = false;
  for (let k = i; k <= j; k++) if (field.has(k)) repeatsField = true;
  // One plain lower-case word and then a preposition ("is responsible for", "is available in"): a predicate, not a value.
  const predicate = i === j && /^\p{Ll}+$/u.test(words[i]!.raw) && PREDICATE_PREPOSITIONS.has(lowerAt(words, j + 1));
  return { text, repeatsField, predicate };
}

/** Quality of a candidate span: its rule's weight, plus for looking like a value, minus for length, prose or repeating the field. */
function judged(rule: number, span: { text: string; repeatsField: boolean; predicate?: boolean }): Span {
  const words = span.text.split(/\s+/).length;
  const first = span.text.split(/\s+/)[0]!;
  let quality = rule + (valueLike(span.text) ? 0.3 : 0) - (words > 4 ? 0.1 * (words - 4) : 0) - (span.repeatsField ? 0.6 : 0) - (span.predicate ? 0.6 : 0);
  // A participle or adverb right after a copula is a passive or a description ("is copied every six hours", "is rarely used"), not a value.
  if (/^(?:\p{Ll}{2,}ed|\p{Ll}{3,}ly|not|no|never)$/u.test(first) || PARTICIPLES_EN.has(first)) quality -= 1;
  return { text: span.text, quality };
}

/**
 * Candidate spans of a clause for a string field, best first. `match.at`
 * holds the indices of the field's words in the clause; a clause carried
 * from its row's first clause has none, and answers only as "It defaults
 * to …" / "It is …".
 */
export function stringSpans(clause: Clause, match: ClauseMatch, fieldName = ""): Span[] {
  const field = new Set(match.at);
  if (match.at.length === 0) return carriedSpans(clause, field);
  const last = Math.max(...match.at);
  const first = Math.min(...match.at);
  const out = afterFieldSpans(clause, last, field);
  out.push(...subjectSpans(clause, match, first, field, agentStems(fieldName)));
  const modifier = modifierSpan(clause, first);
  if (modifier) out.push(modifier);
  return out.sort((a, b) => b.quality - a.quality);
}

/** A clause carried from its row's first clause: only "It defaults to …" / "It is …" answers. */
function carriedSpans(clause: Clause, field: ReadonlySet<number>): Span[] {
  const i = PRONOUNS.has(lowerAt(clause.words, 0)) ? 1 : 0;
  const c = copulaAt(clause.words, i);
  const s = c > 0 ? spanFrom(clause, i + c, field) : undefined;
  return s ? [judged(0.9, s)] : [];
}

/** Spans after the field's last word: a label, a copula, an apposition, a preposition. */
function afterFieldSpans(clause: Clause, last: number, field: ReadonlySet<number>): Span[] {
  const { words } = clause;
  const out: Span[] = [];
  // Label: "origin: …", "Owner: Dana Reyes".
  const afterLast = clause.text.slice(words[last]!.end, words[last + 1]?.start ?? clause.text.length);
  // A version range keeps its operator: "engines.node: >=20".
  const label = /^\s*[:=]\s*([<>=~^]*)\s*$/.exec(afterLast);
  if (label && last + 1 < words.length) {
    const s = spanFrom(clause, last + 1, field);
    if (s) out.push(judged(0.8, label[1] ? { ...s, text: `${label[1]}${s.text}` } : s));
  }
  // Copula after the field's words, setting nouns and adverbs skipped.
  let k = last + 1;
  while (k < words.length && (SETTING_NOUNS.has(lowerAt(words, k)) || SKIPPED_ADVERBS.has(lowerAt(words, k)))) k++;
  const c = copulaAt(words, k);
  if (c > 0 && k - last <= 3) {
    const s = spanFrom(clause, k + c, field);
    if (s) out.push(judged(1, s));
  }
  // Apposition: a value-like token right after the field's words.
  if (last + 1 < words.length && adjacent(clause, last, last + 1) && valueLike(words[last + 1]!.raw)) {
    out.push(judged(1, { text: words[last + 1]!.raw, repeatsField: false }));
  }
  // Preposition after the field's words (a verb or noun of the field): "hashed with X", "owned by X".
  if (PREPOSITIONS.has(lowerAt(words, last + 1))) {
    const s = spanFrom(clause, last + 2, field);
    if (s) out.push(judged(0.85, s));
  }
  return out;
}

/** A modifier between a determiner and the field's first word: "the main branch". */
function modifierSpan(clause: Clause, first: number): Span | undefined {
  const { words } = clause;
  let d = first - 1;
  while (d >= 0 && !DETERMINERS.has(lowerAt(words, d)) && first - d <= 3) d--;
  if (d < 0 || !DETERMINERS.has(lowerAt(words, d)) || d >= first - 1) return undefined;
  const mods = words.slice(d + 1, first);
  const plain = mods.every((w) => !/(?:ed|ing)$/.test(w.lower) && w.lower.length > 1);
  return plain ? judged(0.7, { text: clause.text.slice(mods[0]!.start, mods.at(-1)!.end), repeatsField: false }) : undefined;
}

/** Verbs that state who or what a thing is: "Bob Smith is the account executive". */
const STATING_COPULAS = new Set(["is", "was", "are", "were", "becomes", "became", "remains"]);

/**
 * The name a clause states as the field's holder, read before the field's
 * words rather than after them:
 *
 * - the subject of a copula and the field: "Bob Smith is the account
 *   executive for Globex" (`accountExecutive`);
 * - the object before "as the" field: "Acme adopts Stripe as the payment
 *   provider" (`provider`);
 * - the subject of the verb an agent noun is made from: "Alice Johnson owns
 *   the billing roadmap" (`owner`, whose stem the verb "owns" shares),
 *   "Dana approves refunds" (`approver`).
 *
 * Only a name is taken: capitalised words (or a value-like token) standing
 * right before, never a pronoun, a determiner or prose.
 */
function subjectSpans(clause: Clause, match: ClauseMatch, first: number, field: ReadonlySet<number>, agents: ReadonlySet<string>): Span[] {
  const { words } = clause;
  const out: Span[] = [];
  let d = first - 1;
  while (d >= 0 && !DETERMINERS.has(lowerAt(words, d)) && first - d <= 3 && !field.has(d)) d--;
  if (d >= 1 && DETERMINERS.has(lowerAt(words, d))) {
    const before = lowerAt(words, d - 1);
    const name = STATING_COPULAS.has(before) || before === "as" ? nameEndingAt(clause, d - 2) : undefined;
    if (name) out.push(judged(0.9, { text: name, repeatsField: false }));
  }
  const verb = words[first]!;
  if (match.at.length > 0 && agents.has(verb.stem) && isAgentVerb(verb)) {
    const name = nameEndingAt(clause, first - 1);
    if (name) out.push(judged(0.9, { text: name, repeatsField: false }));
  }
  return out;
}

/** The stems of a field name's agent nouns ("owner" → own, "approver" → approv): the verbs they are made from share them. */
function agentStems(fieldName: string): Set<string> {
  return new Set(identifierParts(fieldName).filter((w) => /\p{L}{2,}(?:er|or)$/u.test(w)).map(stem));
}

/** A verb form ("owns", "managed", "approves") where the field names the one who does it ("owner", "manager", "approver"). */
function isAgentVerb(word: Word): boolean {
  return /^\p{Ll}+(?:s|ed)$/u.test(word.raw) && !/(?:ers|ors|ess|ous|ss)$/.test(word.lower);
}

/**
 * The name whose last word is word `end`: up to four capitalised words (or
 * one value-like token) joined by spaces only, not starting at a
 * determiner or pronoun; undefined when there is none.
 */
function nameEndingAt(clause: Clause, end: number): string | undefined {
  const { words } = clause;
  if (end < 0) return undefined;
  const capital = (i: number) => /^\p{Lu}/u.test(words[i]!.raw) || valueLike(words[i]!.raw);
  if (!capital(end)) return undefined;
  let start = end;
  while (start - 1 >= 0 && end - start < 3 && capital(start - 1) && adjacent(clause, start - 1, start)) start--;
  while (start <= end && (DETERMINERS.has(lowerAt(words, start)) || PRONOUNS.has(lowerAt(words, start)) || lowerAt(words, start) === "we" || lowerAt(words, start) === "our")) start++;
  if (start > end) return undefined;
  return clause.text.slice(words[start]!.start, words[end]!.end);
}
