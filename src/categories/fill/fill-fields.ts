/**
 * Filling a member's fields from what the member itself states: each field
 * of the type's schema is matched to one of the instance's `key: value`
 * pairs and read with {@link extractValue}. Pure and deterministic — the
 * same fields and instance always give the same filled values — and
 * extractive: a field no pair states, or whose pair holds nothing of the
 * field's type, is left out rather than guessed.
 */
import type { Instance, InstanceValue } from "../instance.js";
import type { SchemaField } from "../../vocabulary.js";
import { extractValue } from "./extract-value.js";

/** A member's filled fields, and for each the cells its value was read from. */
export interface Filled {
  /** Field name (as in the schema) → typed value. Only fields that were read. */
  values: Record<string, unknown>;
  /** Field name → the cellIds of the pair the value came from. Same keys as `values`. */
  sources: Record<string, string[]>;
}

/**
 * Reads `fields` from `instance`'s stated values.
 *
 * A key matches a field when their normalised forms are equal — lower-cased,
 * words split on spaces, underscores, hyphens, other punctuation and
 * camelCase, so "rootCause", "Root cause" and "root_cause" agree — or equal
 * up to the last word's plural ("Owners" for field "owner", "Tag" for
 * "tags"). Exact matches are tried before plural ones, each in the
 * instance's order; the first candidate whose value holds something of the
 * field's type fills it, so a later pair that does state the value is not
 * lost to an earlier one that does not. An `entity` field keeps the name as
 * a string; linking it to an entity is the caller's business.
 */
export function fillFields(fields: readonly SchemaField[], instance: Instance): Filled {
  const values: Record<string, unknown> = {};
  const sources: Record<string, string[]> = {};
  const keyed = instance.values.map((v) => ({ value: v, words: keyWords(v.key) }));
  for (const field of fields) {
    const fieldWords = keyWords(field.name);
    if (fieldWords.length === 0) continue;
    const exact: InstanceValue[] = [];
    const plural: InstanceValue[] = [];
    for (const { value, words } of keyed) {
      if (sameWords(words, fieldWords)) exact.push(value);
      else if (samePlural(words, fieldWords)) plural.push(value);
    }
    for (const candidate of [...exact, ...plural]) {
      const extracted = extractValue(field.type, candidate.value);
      if (extracted === undefined) continue;
      values[field.name] = extracted;
      sources[field.name] = [...candidate.cellIds];
      break;
    }
  }
  return { values, sources };
}

/**
 * The lower-case words of a key or field name: camelCase and acronym
 * boundaries split ("rootCause" → root cause, "HTTPStatus" → http status),
 * any run of non-letters-or-digits is a separator.
 */
export function keyWords(key: string): string[] {
  return key
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, i) => w === b[i]);
}

/** Equal but for the last word, whose singular/plural forms meet. */
function samePlural(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  const last = a.length - 1;
  if (!a.slice(0, last).every((w, i) => w === b[i])) return false;
  const formsA = wordForms(a[last]!);
  return wordForms(b[last]!).some((f) => formsA.includes(f));
}

/**
 * A word and the singulars it could be the plural of: "-s" (not "-ss"),
 * "-es", "-ies" → "-y". Comparing these sets on both sides matches
 * "causes"/"cause", "statuses"/"status", "policies"/"policy" without a
 * dictionary.
 */
function wordForms(word: string): string[] {
  const forms = [word];
  if (word.length > 2 && word.endsWith("s") && !word.endsWith("ss")) forms.push(word.slice(0, -1));
  if (word.length > 3 && word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.length > 4 && word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  return forms;
}
