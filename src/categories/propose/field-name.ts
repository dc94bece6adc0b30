/**
 * Words of proposed types: how a key as written ("Root cause",
 * `root_cause`) becomes a schema field name, how a plural container name
 * ("services", customers.csv) becomes a singular type name, and the
 * normal forms keys and names are compared in. Pure string work, shared by
 * reading instances and proposing shapes so both compare alike.
 */
import { FIELD_NAME_MAX, RESERVED_FIELD_NAMES } from "../../vocabulary.js";

const RESERVED_LOWER: ReadonlySet<string> = new Set(RESERVED_FIELD_NAMES.map((n) => n.toLowerCase()));

/** Plurals that no suffix rule gets right. */
const IRREGULAR: Readonly<Record<string, string>> = {
  people: "person",
  children: "child",
  men: "man",
  women: "woman",
  indices: "index",
  matrices: "matrix",
  criteria: "criterion",
  analyses: "analysis",
  statuses: "status",
  aliases: "alias",
  buses: "bus",
  caches: "cache",
  movies: "movie",
  cookies: "cookie",
};

/** Words ending in "s" that are not plurals (a type named "Status" stays "Status"). */
const NOT_PLURAL = /(?:ss|us|is|os|news|series|species|data|metadata)$/i;

/**
 * The singular of one English word, by the common suffix rules
 * ("services" → "service", "policies" → "policy", "boxes" → "box",
 * "people" → "person"). Words that do not read as plurals come back as they
 * are; the case of the word is kept.
 */
export function singularWord(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular !== undefined) return matchCase(word, irregular);
  if (lower.length <= 3 || NOT_PLURAL.test(lower) || !lower.endsWith("s")) return word;
  if (/[^aeiou]ies$/.test(lower)) return `${word.slice(0, -3)}${matchCase(word.slice(-3), "y")}`;
  if (/(?:ches|shes|xes|zzes|sses)$/.test(lower)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** `replacement` in upper case when `like` is all upper case ("POLICIES" → "POLICY"). */
function matchCase(like: string, replacement: string): string {
  return like === like.toUpperCase() && like !== like.toLowerCase() ? replacement.toUpperCase() : replacement;
}

/** The first letter in upper case, the rest as written ("incident" → "Incident", "aDR" → "ADR"). */
export function capitalise(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toUpperCase() + text.slice(head.length);
}

/**
 * A type name from a plural-ish name of a container: words split at
 * `_`, `-`, `.`, spaces and lower-to-upper case changes, the last word
 * singular, the first capitalised ("services" → "Service", "order_items" →
 * "Order item", "incidentLog" → "Incident log"; acronyms keep their
 * case: "ADRs" → "ADR"). Undefined when nothing
 * reads as a word (a name of digits, punctuation only).
 */
export function typeNameOf(raw: string): string | undefined {
  const words = raw
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[\s_.\-]+/u)
    .filter((w) => w.length > 0);
  if (words.length === 0 || !/^\p{L}/u.test(words[0] ?? "")) return undefined;
  const last = words.length - 1;
  const out = words.map((word, i) => {
    if (/^\p{Lu}{2,}s$/u.test(word)) return i === last ? word.slice(0, -1) : word;
    const lowered = word === word.toUpperCase() && word.length > 1 ? word : word.toLowerCase();
    return i === last ? singularWord(lowered) : lowered;
  });
  return capitalise(out.join(" "));
}

/**
 * The normal form two type hints are compared in: lower case, whitespace
 * collapsed, the last word singular ("Incidents" and "incident" group
 * together).
 */
export function hintKey(hint: string): string {
  const words = hint.toLowerCase().split(/\s+/u).filter((w) => w.length > 0);
  const last = words.pop();
  return last === undefined ? "" : [...words, singularWord(last)].join(" ");
}

/**
 * The normal form two keys are compared in: lower case, runs of spaces,
 * `_` and `-` as one space ("Root cause", "root_cause" and "ROOT-CAUSE" are
 * one key).
 */
export function keyOf(key: string): string {
  return key.toLowerCase().replace(/[\s_\-]+/gu, " ").trim();
}

/** A fingerprint-safe slug: lower-case letters and digits joined by "-" ("Decision record" → "decision-record"). */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .join("-");
}

/** A field name and whether it had to be renamed away from a reserved name. */
export interface FieldName {
  name: string;
  /** The reserved name the key would have taken ("text"), when it was renamed. */
  reserved?: string;
}

/**
 * The camelCase field name of a key as written: words split at anything
 * that is not a letter or digit and at lower-to-upper case changes, the
 * first word lower case, the others capitalised ("Severity" → "severity",
 * "Root cause" → "rootCause", "tls.cert_file" → "tlsCertFile", "createdAt"
 * stays). Schema rules hold for the result: it starts with a letter (a key
 * starting otherwise gets "field" in front: "2fa" → "field2fa"), is at most
 * {@link FIELD_NAME_MAX} characters, and is not a reserved name ignoring
 * case — a key that would be one gets "Value" appended ("text" →
 * "textValue") and says so in `reserved`. Unique names within a schema are
 * the caller's work ({@link uniqueFieldName}).
 */
export function fieldNameOf(key: string): FieldName {
  const words = key
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  let name = words
    .map((word, i) => {
      const lower = word.toLowerCase();
      return i === 0 ? lower : capitalise(lower);
    })
    .join("");
  if (name.length === 0) name = "field";
  else if (!/^\p{L}/u.test(name)) name = `field${name}`;
  name = truncate(name, FIELD_NAME_MAX);
  if (RESERVED_LOWER.has(name.toLowerCase())) {
    const reserved = name;
    return { name: `${truncate(name, FIELD_NAME_MAX - 5)}Value`, reserved };
  }
  return { name };
}

/**
 * `name`, or `name` with the smallest number ≥ 2 appended that makes it
 * unique ignoring case among `taken` (lower-cased names); the chosen name
 * is added to `taken`. Two keys such as "Owner" and "owner:" that read as
 * different keys but give one camelCase name keep distinct fields.
 */
export function uniqueFieldName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = String(n);
    candidate = `${truncate(name, FIELD_NAME_MAX - suffix.length)}${suffix}`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** At most `max` code points of `text`. */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join("");
}
