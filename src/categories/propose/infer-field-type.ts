/**
 * The field type a set of stated values suggests: every value of one key
 * across a proposed type's instances in, one word of {@link FIELD_TYPES}
 * out. A proposal is a suggestion a person confirms, so the rule is
 * simple enough to state in a sentence and tolerant of a stray value.
 */
import type { FieldType } from "../../vocabulary.js";

/**
 * Share of the non-empty values that must fit a type for it to hold: one
 * "TBD" among five dates still makes a date field, two of five do not.
 */
export const TYPE_THRESHOLD = 0.8;

const BOOLEAN = /^(?:yes|no|true|false)$/i;

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10,
  nov: 11, november: 11, dec: 12, december: 12,
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/i;
/** "March 2, 2026", "Mar 2 2026", "Sept. 2nd, 2026". */
const MONTH_DAY_YEAR = /^([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i;
/** "2 March 2026", "2nd Mar, 2026". */
const DAY_MONTH_YEAR = /^(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.?,? (\d{4})$/i;

/** A number: sign, currency sign, thousands separated by commas or not, decimals, a percent sign. */
const NUMBER = /^[-+]?[$€£¥]?(?:\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?%?$/u;
/** A number and one unit word after a space ("40 minutes", "512 MB", "12 req/s"). */
const NUMBER_WITH_UNIT = /^(\S+) ([\p{L}°µ][\p{L}/%]{0,11})$/u;

const URL = /^(?:(?:https?|ftp):\/\/|www\.)[^\s/.]+\.[^\s]+$|^https?:\/\/localhost(?::\d+)?(?:\/\S*)?$/i;
const EMAIL = /^(?:mailto:)?[^\s@<>(),;:]+@[^\s@<>(),;:]+\.\p{L}{2,}$/u;

/** Longest item of a short list, and most words in one. */
const LIST_ITEM_MAX_CHARS = 40;
const LIST_ITEM_MAX_WORDS = 4;

/** One word of a proper name: "Alice", "O'Brien", "Jean-Luc", "McDonald", "IBM", "J.". */
const NAME_WORD = /^(?:\p{Lu}[\p{L}\p{M}'’-]*\p{Ll}[\p{L}\p{M}'’-]*|\p{Lu}{2,5}|\p{Lu}\.)$/u;
/** Linking words a name may hold between capitalised words ("Bank of England"). */
const NAME_PARTICLES = new Set(["of", "de", "van", "von", "der", "la", "le", "du", "da", "and", "&"]);
const NAME_MAX_WORDS = 3;
/**
 * Capitalised words that are states, levels and placeholders, not names:
 * "Accepted" or "High" as a status or severity must not make an entity
 * field.
 */
const NOT_NAMES = new Set([
  "accepted", "active", "approved", "blocked", "blocker", "cancelled", "canceled", "closed", "complete",
  "completed", "critical", "deprecated", "done", "draft", "failed", "high", "in progress", "inactive",
  "low", "major", "medium", "minor", "n/a", "new", "no", "none", "normal", "open", "passed", "pending",
  "planned", "proposed", "rejected", "resolved", "superseded", "tbd", "todo", "to do", "trivial",
  "unknown", "urgent", "yes", "true", "false", "null", "other", "misc",
]);

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDate(year: number, month: number | undefined, day: number): boolean {
  return month !== undefined && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);
}

/** An ISO date (`2026-03-02`) or a written one (`March 2, 2026`, `2 Mar 2026`), checked against the calendar. */
export function isDate(value: string): boolean {
  const iso = ISO_DATE.exec(value);
  if (iso !== null) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const mdy = MONTH_DAY_YEAR.exec(value);
  if (mdy !== null) return validDate(Number(mdy[3]), MONTHS[(mdy[1] ?? "").toLowerCase()], Number(mdy[2]));
  const dmy = DAY_MONTH_YEAR.exec(value);
  if (dmy !== null) return validDate(Number(dmy[3]), MONTHS[(dmy[2] ?? "").toLowerCase()], Number(dmy[1]));
  return false;
}

/** An ISO date with a time of day (`2026-03-02T14:05`, `2026-03-02 14:05:09Z`, with an offset or not). */
export function isDateTime(value: string): boolean {
  const m = ISO_DATETIME.exec(value);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A read number: whether it has decimals, and its unit word ("minute" from "40 minutes"), if any. */
interface ReadNumber {
  decimal: boolean;
  unit: string | undefined;
}

/** Singular, lower-case unit ("Minutes" → "minute"; "ms" stays). */
function unitKey(unit: string): string {
  const lower = unit.toLowerCase();
  return lower.length > 3 && lower.endsWith("s") && !lower.endsWith("ss") ? lower.slice(0, -1) : lower;
}

function readNumber(value: string): ReadNumber | undefined {
  const bare = NUMBER.exec(value);
  if (bare !== null) return { decimal: bare[1] !== undefined, unit: undefined };
  const withUnit = NUMBER_WITH_UNIT.exec(value);
  if (withUnit === null) return undefined;
  const number = NUMBER.exec(withUnit[1] ?? "");
  if (number === null) return undefined;
  return { decimal: number[1] !== undefined, unit: unitKey(withUnit[2] ?? "") };
}

/**
 * Integer or number, when enough values read as numbers. A value may carry
 * one unit word after it ("40 minutes"), but only the unit most values
 * carry counts: "3 days" among "40 minutes" and "12 minutes" does not fit,
 * since numbers of different units cannot share a field.
 */
function numericType(values: readonly string[]): FieldType | undefined {
  const read = values.map(readNumber);
  const unitCounts = new Map<string, number>();
  for (const r of read) if (r?.unit !== undefined) unitCounts.set(r.unit, (unitCounts.get(r.unit) ?? 0) + 1);
  const unit = [...unitCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  const fitting = read.filter((r): r is ReadNumber => r !== undefined && (r.unit === undefined || r.unit === unit));
  if (!holds(fitting.length, values.length)) return undefined;
  return fitting.some((r) => r.decimal) ? "number" : "integer";
}

/** The items of a short list ("api, web, worker"), or undefined when some item is not short. */
function listItems(value: string): string[] | undefined {
  const items = value.split(/\s*[,;]\s*/u);
  const short = items.every(
    (item) =>
      item.length > 0 &&
      item.length <= LIST_ITEM_MAX_CHARS &&
      item.split(/\s+/u).length <= LIST_ITEM_MAX_WORDS &&
      !/[.!?:]$/u.test(item),
  );
  return short ? items : undefined;
}

/**
 * A list field when most values (more than half) are lists of two or more
 * short items and the rest, up to the threshold, are single short items
 * (a list of one).
 */
function isListField(values: readonly string[]): boolean {
  const items = values.map(listItems);
  const lists = items.filter((i) => i !== undefined && i.length >= 2).length;
  const fitting = items.filter((i) => i !== undefined).length;
  return lists * 2 > values.length && holds(fitting, values.length);
}

/**
 * A proper name: one to three capitalised words ("Alice", "Alice Smith",
 * "Billing Team", "IBM"), linking words such as "of" allowed between them,
 * and not a word that names a state or level ("High", "Accepted").
 */
export function isProperName(value: string): boolean {
  if (NOT_NAMES.has(value.toLowerCase())) return false;
  const words = value.split(/\s+/u);
  const named = words.filter((w) => !NAME_PARTICLES.has(w));
  if (named.length === 0 || named.length > NAME_MAX_WORDS) return false;
  if (NAME_PARTICLES.has(words[0] ?? "") || NAME_PARTICLES.has(words.at(-1) ?? "")) return false;
  return named.every((w) => NAME_WORD.test(w));
}

function holds(fitting: number, total: number): boolean {
  return total > 0 && fitting >= TYPE_THRESHOLD * total;
}

function share(values: readonly string[], test: (value: string) => boolean): boolean {
  return holds(values.filter(test).length, values.length);
}

/**
 * The field type of a key from its values across instances. Empty values
 * are left out; with none left the type is "text". A type holds when at
 * least {@link TYPE_THRESHOLD} (80 %) of the non-empty values fit it.
 * Checked in this order, the first that holds wins, so a more specific
 * reading is never hidden by a looser one (a date is not read as text, a
 * year-first ISO date is never a number, a list of names is not one name):
 *
 * 1. boolean — yes / no / true / false, any case;
 * 2. datetime — ISO date with a time of day; and when dates and datetimes
 *    together reach the threshold but neither alone does, datetime (a bare
 *    date reads as its midnight);
 * 3. date — ISO `yyyy-mm-dd`, "March 2, 2026", "2 Mar 2026", valid days only;
 * 4. integer / number — digits with optional sign, currency sign, comma
 *    thousands separators, decimals, a percent sign, or one unit word
 *    ("40 minutes", "512 MB"; one unit per field); "number" when any
 *    fitting value has decimals;
 * 5. url — `http(s)://`, `ftp://` or `www.` addresses;
 * 6. email — `name@domain.tld`, optionally with `mailto:`;
 * 7. text[] — more than half the values are comma- (or semicolon-)
 *    separated lists of ≥ 2 short items (≤ 40 characters, ≤ 4 words, no
 *    sentence punctuation), and with single short items they reach the
 *    threshold;
 * 8. entity — proper names: 1–3 capitalised words ("Alice", "Alice Smith",
 *    "Billing Team"), not words of state or level such as "High" or
 *    "Accepted";
 * 9. text — anything else.
 */
export function inferFieldType(values: string[]): FieldType {
  const present = values.map((v) => v.trim()).filter((v) => v.length > 0);
  if (present.length === 0) return "text";
  if (share(present, (v) => BOOLEAN.test(v))) return "boolean";
  if (share(present, isDateTime)) return "datetime";
  if (share(present, isDate)) return "date";
  if (share(present, (v) => isDate(v) || isDateTime(v))) return "datetime";
  const numeric = numericType(present);
  if (numeric !== undefined) return numeric;
  if (share(present, (v) => URL.test(v))) return "url";
  if (share(present, (v) => EMAIL.test(v))) return "email";
  if (isListField(present)) return "text[]";
  if (share(present, isProperName)) return "entity";
  return "text";
}
