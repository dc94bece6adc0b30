/**
 * Definitions in prose: the subject of "X is a/an/the …" and "X are …", the
 * class it is defined as ("a memory error detector"), and the aliases a text
 * declares ("X, also called Y", "X (short for Y)", "Long Name (LN)").
 */
import { cleanName, isGenericName, isPlausibleName } from "./clean-name.js";
import type { EntityMention, MentionKind } from "./entity-mention.js";
import { nameKind } from "./name-kind.js";
import { hasNameShape, isAcronym, isCapitalised } from "./name-shape.js";
import type { WordTags } from "./word-tags.js";
import { tagsOf } from "./word-tags.js";
import { GENERIC_HEADS, GENERIC_NAMES, STOPWORDS } from "./word-lists.js";

const SUBJECT_WORD = "[\\p{L}\\p{N}][\\p{L}\\p{N}'’+#.@/_-]*";
const COPULA = new RegExp(
  `^(?:the\\s+)?((?:${SUBJECT_WORD}\\s+){0,3}${SUBJECT_WORD})(?:\\s+[-–—]\\s+[^-–—]{1,80}?\\s+[-–—])?,?\\s+(?:is|are|was|were)\\s+` +
    "(?:also\\s+|now\\s+|currently\\s+|simply\\s+|essentially\\s+|basically\\s+)?(?:an?|the|one\\s+of\\s+the)\\s+(.+)$",
  "iu",
);
/** "Embedded replicas are local copies of …": a plural subject classified without an article. */
const PLURAL_COPULA = new RegExp(`^(?:the\\s+)?((?:${SUBJECT_WORD}\\s+){0,2}${SUBJECT_WORD}s)\\s+are\\s+(.+)$`, "iu");
const ALIAS = /^(.*?[\p{L}\p{N}+#])\s*(?:,|\()\s*(?:also\s+(?:called|known\s+as|named|referred\s+to\s+as)|a\.?k\.?a\.?|or\s+simply|short\s+for|abbreviated(?:\s+as)?)\s+["“]?([^,;:()"”]{1,60}?)["”]?\s*(?:[,;:)]|\.(?:\s|$)|$)/iu;
const PARENTHESIS = /\s\(([^()]{1,60})\)/g;
const CLASS_OPENERS = /^(?:[a-z-]+\s+)?(?:kind|type|sort|form|variant|set|suite|family|collection|piece|part|member)\s+of\s+/i;
/** Modifiers of praise that open a class phrase ("ultrafast", "lightweight", "zero-config"). */
const PRAISE = /^(?:\w+-)?(?:\w*fast|\w*light(?:weight)?|simple|small|tiny|minimal|modern|powerful|robust|\w*safe|zero-\w+)$/i;
const ORDINARY = ["Adjective", "Adverb", "Determiner", "Preposition", "Conjunction", "Pronoun"];

function subjectKind(words: readonly string[], tags: WordTags): MentionKind {
  const named = words.some((w, i) => hasNameShape(w) || (i > 0 && isCapitalised(w))) || (words.length === 1 && isCapitalised(words[0] ?? ""));
  return named ? nameKind(words, tags, { personCue: false }) : "concept";
}

/** The noun phrase a definition puts its subject in: "small, simple, and ultrafast web framework built on …" → `web framework`. */
function classPhrase(predicate: string, tags: WordTags): string | undefined {
  let words: string[] = [];
  for (const raw of predicate.replace(CLASS_OPENERS, "").split(/\s+/)) {
    const word = raw.replace(/[,;:.!?)]+$/, "");
    const own = tagsOf(tags, word);
    const stop = STOPWORDS.has(word.toLowerCase()) || (own.has("Verb") && !own.has("Noun")) || raw.startsWith("(");
    if (stop && word.toLowerCase() !== "and") break;
    // A list ("small, simple, and …"), a name or a participle ends what came before: the class starts after it.
    if (word.toLowerCase() === "and" || isCapitalised(word) || (/(?:ing|ed)$/.test(word) && words.length > 0)) words = [];
    else if (word.length > 0) words.push(word);
    if (word !== raw && !raw.endsWith(",")) break;
  }
  while (words.length > 0 && (ORDINARY.some((t) => tagsOf(tags, words[0] ?? "").has(t)) || GENERIC_NAMES.has(words[0] ?? ""))) {
    words = words.slice(1);
  }
  while (words.length > 2 && PRAISE.test(words[0] ?? "")) words = words.slice(1);
  const head = words.at(-1) ?? "";
  if (words.length < 2 || GENERIC_HEADS.has(head) || !tagsOf(tags, head).has("Noun")) return undefined;
  return words.slice(-3).join(" ");
}

/** "X is a Y …": the subject X and the class Y. */
function copulaMentions(sentence: string, tags: WordTags): EntityMention[] {
  const match = COPULA.exec(sentence);
  if (match?.[1] === undefined || match[2] === undefined) return [];
  const words = match[1].split(/\s+/);
  if (words.some((w) => STOPWORDS.has(w.toLowerCase()))) return [];
  const subject = cleanName(match[1]);
  const found: EntityMention[] = [];
  if (isPlausibleName(subject)) found.push({ name: subject, kind: subjectKind(words, tags), source: "definition" });
  const kind = classPhrase(match[2], tags);
  if (found.length > 0 && kind !== undefined) found.push({ name: kind, kind: "concept", source: "definition" });
  return found;
}

/** Whether a predicate classifies (a noun comes before any function word) rather than describes an action. */
function classifies(predicate: string, tags: WordTags): boolean {
  const words = predicate.split(/\s+/).slice(0, 4).map((w) => w.replace(/[,;:.!?)]+$/, ""));
  const first = tagsOf(tags, words[0] ?? "");
  if (["Verb", "Adverb", "Determiner", "Preposition", "Pronoun", "Conjunction"].some((t) => first.has(t))) return false;
  for (const word of words) {
    if (STOPWORDS.has(word.toLowerCase())) return false;
    if (tagsOf(tags, word).has("Noun")) return true;
  }
  return false;
}

/** "X are Y" with no article: only the subject, and only when Y classifies it. */
function pluralCopulaMentions(sentence: string, tags: WordTags): EntityMention[] {
  const match = PLURAL_COPULA.exec(sentence);
  if (match?.[1] === undefined || match[2] === undefined || !classifies(match[2], tags)) return [];
  const words = match[1].split(/\s+/);
  const subject = cleanName(match[1]);
  if (words.some((w) => STOPWORDS.has(w.toLowerCase())) || !isPlausibleName(subject)) return [];
  return [{ name: subject, kind: subjectKind(words, tags), source: "definition" }];
}

/** The last few words before a comma or parenthesis: the name an alias is declared for. */
function namedBefore(text: string): string {
  const words = text.trim().split(/\s+/);
  const start = words.findLastIndex((w) => STOPWORDS.has(w.toLowerCase()) && !/^(?:of|&)$/i.test(w));
  return cleanName(words.slice(start + 1).slice(-5).join(" "));
}

function aliasPair(long: string, short: string, tags: WordTags): EntityMention[] {
  if (!isPlausibleName(long) || !isPlausibleName(short) || isGenericName(short)) return [];
  const kind = subjectKind(long.split(" "), tags);
  return [
    { name: long, kind, source: "definition" },
    { name: short, kind, source: "definition", aliasOf: long },
  ];
}

/** Whether `short` is made of the initials of `long`'s words (function words may be skipped). */
export function isInitialism(short: string, long: string): boolean {
  const letters = short.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  const words = long.split(/[\s/-]+/).filter((w) => w.length > 0);
  const walk = (i: number, w: number): boolean => {
    if (i === letters.length) return words.slice(w).every((x) => STOPWORDS.has(x.toLowerCase()));
    const word = words[w];
    if (word === undefined) return false;
    const inner = (word.match(/[A-Z]/g) ?? []).length > 1 ? (word.match(/[A-Z]/g) ?? []).join("").toLowerCase() : undefined;
    if (inner !== undefined && letters.startsWith(inner, i) && walk(i + inner.length, w + 1)) return true;
    if (word[0]?.toLowerCase() === letters[i] && walk(i + 1, w + 1)) return true;
    return STOPWORDS.has(word.toLowerCase()) && walk(i, w + 1);
  };
  return letters.length >= 2 && walk(0, 0);
}

/** "Long Name (LN)" and "LN (Long Name)": the short form becomes an alias of the long one. */
function parenthesisMentions(text: string, tags: WordTags): EntityMention[] {
  const found: EntityMention[] = [];
  for (const m of text.matchAll(PARENTHESIS)) {
    const before = text.slice(Math.max(0, m.index - 80), m.index).split(/[,;:.!?()]\s/).at(-1) ?? "";
    const inside = cleanName(m[1] ?? "");
    if (isAcronym(inside) || /^[A-Z][A-Za-z]{1,7}$/.test(inside)) {
      const words = before.trim().split(/\s+/);
      for (let n = Math.min(words.length, inside.length + 3); n >= 2; n--) {
        const long = cleanName(words.slice(-n).join(" "));
        if (isInitialism(inside, long)) {
          found.push(...aliasPair(long, inside, tags));
          break;
        }
      }
    } else {
      const short = cleanName(before.trim().split(/\s+/).at(-1) ?? "");
      if (isAcronym(short) && isInitialism(short, inside)) found.push(...aliasPair(inside, short, tags));
    }
  }
  return found;
}

/** "X, also called Y", "X (short for Y)", "X, aka Y". */
function declaredAliases(sentence: string, tags: WordTags): EntityMention[] {
  const match = ALIAS.exec(sentence);
  if (match?.[1] === undefined || match[2] === undefined) return [];
  const first = namedBefore(match[1]);
  const second = cleanName(match[2]);
  const shortFor = /short\s+for|abbreviated/i.test(sentence.slice(match[1].length, sentence.length - match[2].length));
  return shortFor ? aliasPair(second, first, tags) : aliasPair(first, second, tags);
}

/** Every definition and alias in one sentence of a cell. */
export function definitionMentions(sentence: string, tags: WordTags): EntityMention[] {
  const copula = copulaMentions(sentence, tags);
  const subjects = copula.length > 0 ? copula : pluralCopulaMentions(sentence, tags);
  return [...subjects, ...declaredAliases(sentence, tags), ...parenthesisMentions(sentence, tags)];
}
