/**
 * Reading a typed value out of a stated value ("3.5 h", "March 2, 2026",
 * "Alice and Bob"). Filling is extractive: a value is returned only when the
 * text states one of the field's type, and `undefined` otherwise — nothing
 * is guessed, defaulted or completed (no invented time zone, no midnight
 * for a bare date, no day-first/month-first guess for "03/02/2026").
 */
import type { FieldType } from "../../vocabulary.js";

/** Longest text value kept, in characters (code points), ellipsis included. */
export const TEXT_VALUE_MAX = 500;

/** Longest string taken as an entity's name; a longer value is a sentence, not a name. */
export const ENTITY_NAME_MAX = 120;

/**
 * The value of type `type` that `raw` states, or `undefined` when it states
 * none:
 * - `number`: the first standalone number; thousands grouped with commas
 *   ("1,200" → 1200), decimals with a point, an exponent allowed, units after
 *   it ignored ("3.5 h" → 3.5). A number inside a word ("v2"), a date or
 *   time ("2026-03-02"), a range ("10-20"), a version ("1.2.3"), an
 *   ambiguous comma ("1,20") or a magnitude letter ("5k", "10m") is not
 *   read, since its value would be a guess.
 * - `integer`: as `number`, and only a whole, safe integer ("3.5" → undefined).
 * - `boolean`: yes/no, true/false, on/off (any case) as the value's only
 *   word, optionally followed by punctuation and a remark ("No (deprecated)").
 * - `date`: "YYYY-MM-DD" from ISO ("2026-03-02", also the date of an ISO
 *   date-time), "2026/03/02", "March 2, 2026", "2 Mar 2026" (ordinals
 *   allowed); impossible dates ("2026-02-30") and all-numeric forms other
 *   than year-first are refused.
 * - `datetime`: ISO 8601 "YYYY-MM-DDTHH:MM:SS[.fff][offset]" from ISO forms
 *   with "T" or a space; seconds default to ":00"; an offset is kept as
 *   written, normalised to "Z" or "±HH:MM" ("UTC"/"GMT" after the time count
 *   as "Z"); with no offset the result has none, since the zone was not
 *   stated. A date alone is refused.
 * - `url`: the first http(s) URL, trailing punctuation and unbalanced
 *   closing brackets dropped, as written.
 * - `email`: the first address, as written.
 * - `entity`: the name as written, markup stripped, trimmed, a trailing
 *   parenthetical remark dropped ("Alice (SRE)" → "Alice"), a closing
 *   period dropped unless it ends a word of up to three letters (an
 *   abbreviation: "Acme, Inc."); refused when
 *   longer than {@link ENTITY_NAME_MAX} characters.
 * - `text[]`: markup stripped, split on commas, semicolons, line breaks and
 *   the word "and"; items trimmed, empty ones dropped; refused when empty.
 * - `text`: markup stripped, whitespace collapsed, trimmed; cut at a word
 *   to at most {@link TEXT_VALUE_MAX} characters ending in "…".
 */
export function extractValue(type: FieldType, raw: string): unknown | undefined {
  switch (type) {
    case "text":
      return extractText(raw);
    case "number":
      return extractNumber(raw);
    case "integer":
      return extractInteger(raw);
    case "boolean":
      return extractBoolean(raw);
    case "date":
      return extractDate(raw);
    case "datetime":
      return extractDateTime(raw);
    case "url":
      return extractUrl(raw);
    case "email":
      return extractEmail(raw);
    case "entity":
      return extractEntity(raw);
    case "text[]":
      return extractTextList(raw);
  }
}

// ---------------------------------------------------------------- markup

/**
 * Removes inline Markdown/HTML markup, keeping the words it wraps: links and
 * images keep their text, wiki links their target, emphasis, code and
 * strike-through their content, autolinks their address; tags are dropped
 * and a leading heading mark or list bullet ("- ", "* ") removed. Numbered
 * markers and quote marks are kept: "5) retries" or "> 5 ms" state values. Whitespace
 * is left as it is. Idempotent on plain text.
 */
export function stripMarkup(raw: string): string {
  let s = raw;
  s = s.replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1");
  s = s.replace(/\[\[([^\]|\n]+)(?:\|[^\]\n]*)?\]\]/g, "$1");
  s = s.replace(/<((?:https?:\/\/|mailto:)[^>\s]+|[^@\s<>]+@[^>\s]+)>/gi, "$1");
  s = s.replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, "");
  s = s.replace(/(`+)([^`\n]+?)\1/g, "$2");
  s = s.replace(/(\*\*|__|~~)(?=\S)([^\n]*?\S)\1/g, "$2");
  s = s.replace(/(^|[^\p{L}\p{N}*])\*(?=\S)([^*\n]*?\S)\*(?![\p{L}\p{N}*])/gu, "$1$2");
  s = s.replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_\n]*?\S)_(?![\p{L}\p{N}_])/gu, "$1$2");
  s = s.replace(/^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+)/gm, "");
  return s;
}

// ---------------------------------------------------------------- text

function extractText(raw: string): string | undefined {
  const text = stripMarkup(raw).replace(/\s+/g, " ").trim();
  if (text === "") return undefined;
  return cutAtWord(text, TEXT_VALUE_MAX);
}

/** `text` cut to at most `max` code points, at a word boundary when there is one, ending in "…". */
function cutAtWord(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  let head = chars.slice(0, max - 1).join("");
  const nextIsSpace = /\s/.test(chars[max - 1] ?? "");
  if (!nextIsSpace) {
    const lastSpace = head.search(/\s\S*$/);
    // A cut that would drop more than half the text is made mid-word instead.
    if (lastSpace > max / 2) head = head.slice(0, lastSpace);
  }
  head = head.replace(/[\s,;:]+$/u, "");
  return `${head}…`;
}

function extractEntity(raw: string): string | undefined {
  let name = stripMarkup(raw).replace(/\s+/g, " ").trim();
  name = name.replace(/\s*\([^()]*\)$/, "").replace(/[,;:]+$/, "").trim();
  // A closing period ends a sentence ("Alice.") unless it ends a short abbreviation ("Acme, Inc.").
  if (/(?:^|[^\p{L}])\p{L}{4,}\.$/u.test(name)) name = name.slice(0, -1);
  if (name === "" || Array.from(name).length > ENTITY_NAME_MAX) return undefined;
  return name;
}

function extractTextList(raw: string): string[] | undefined {
  const items = stripMarkup(raw)
    .split(/[,;\n]|\s+and\s+/i)
    .map((item) => item.replace(/\s+/g, " ").trim().replace(/^and\s+/i, "").trim())
    .filter((item) => item !== "");
  return items.length > 0 ? items : undefined;
}

// ---------------------------------------------------------------- numbers

/**
 * A signed decimal: comma-grouped thousands or plain digits, an optional
 * fraction and exponent. Not preceded by a letter, digit or a character that
 * would make it part of a larger token (a word, a date, a version, a range).
 */
const NUMBER = /(?<![\p{L}\p{N}_.,\-/:])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?/gu;

/** What may not follow a number for it to be read alone. */
const NUMBER_BLOCKED_AFTER = /^(?:[\p{N}_]|[.,\-/:]\d|[kKmMbB](?![\p{L}]))/u;

function extractNumber(raw: string): number | undefined {
  const text = stripMarkup(raw);
  for (const m of text.matchAll(NUMBER)) {
    const after = text.slice(m.index + m[0].length);
    if (NUMBER_BLOCKED_AFTER.test(after)) continue;
    const value = Number(m[0].replace(/,/g, "").replace("−", "-"));
    if (Number.isFinite(value)) return Object.is(value, -0) ? 0 : value;
  }
  return undefined;
}

function extractInteger(raw: string): number | undefined {
  const n = extractNumber(raw);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

// ---------------------------------------------------------------- boolean

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  yes: true,
  true: true,
  on: true,
  no: false,
  false: false,
  off: false,
};

function extractBoolean(raw: string): boolean | undefined {
  const m = /^([A-Za-z]+)(?:\s*$|\s*[.,;:!(—–]|\s+-\s)/.exec(stripMarkup(raw).trim());
  if (!m) return undefined;
  return BOOLEAN_WORDS[m[1]!.toLowerCase()];
}

// ---------------------------------------------------------------- dates

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, january: 1,
  feb: 2, february: 2,
  mar: 3, march: 3,
  apr: 4, april: 4,
  may: 5,
  jun: 6, june: 6,
  jul: 7, july: 7,
  aug: 8, august: 8,
  sep: 9, sept: 9, september: 9,
  oct: 10, october: 10,
  nov: 11, november: 11,
  dec: 12, december: 12,
};

const MONTH_NAME = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";

/** Year-first numeric: 2026-03-02, 2026/03/02, 2026.03.02 (one separator throughout). */
const DATE_YMD = /(?<![\p{N}\p{L}])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\p{N}]|[-/.]\d)/u;
/** March 2, 2026 · Mar 2nd 2026 */
const DATE_MDY = new RegExp(`(?<![\\p{L}])${MONTH_NAME}\\s+${DAY},?\\s+(\\d{4})(?![\\p{N}])`, "iu");
/** 2 March 2026 · 2nd Mar, 2026 */
const DATE_DMY = new RegExp(`(?<![\\p{N}\\p{L}])${DAY}\\s+(?:of\\s+)?${MONTH_NAME},?\\s+(\\d{4})(?![\\p{N}])`, "iu");

interface DateHit {
  index: number;
  year: number;
  month: number;
  day: number;
}

function findDate(text: string): DateHit | undefined {
  const hits: DateHit[] = [];
  const ymd = DATE_YMD.exec(text);
  if (ymd) hits.push({ index: ymd.index, year: +ymd[1]!, month: +ymd[3]!, day: +ymd[4]! });
  const mdy = DATE_MDY.exec(text);
  if (mdy) hits.push({ index: mdy.index, year: +mdy[3]!, month: MONTHS[mdy[1]!.toLowerCase()]!, day: +mdy[2]! });
  const dmy = DATE_DMY.exec(text);
  if (dmy) hits.push({ index: dmy.index, year: +dmy[3]!, month: MONTHS[dmy[2]!.toLowerCase()]!, day: +dmy[1]! });
  hits.sort((a, b) => a.index - b.index);
  return hits[0];
}

function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

function formatDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The first date the text states; an impossible first date is refused, not skipped. */
function extractDate(raw: string): string | undefined {
  const hit = findDate(stripMarkup(raw));
  if (!hit || !isRealDate(hit.year, hit.month, hit.day)) return undefined;
  return formatDate(hit.year, hit.month, hit.day);
}

/** An ISO date-time with "T" or a space; optional seconds, fraction and offset. */
const DATETIME =
  /(?<![\p{N}\p{L}])(\d{4})-(\d{2})-(\d{2})(?:T|t|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:\s*(Z|z|UTC|GMT|[-+−]\d{2}(?::?\d{2})?)(?![\p{L}\p{N}]))?(?![\p{N}]|:\d)/u;

function extractDateTime(raw: string): string | undefined {
  const m = DATETIME.exec(stripMarkup(raw));
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = m[7] === undefined ? "" : `.${m[7]}`;
  const offset = formatOffset(m[8]);
  if (offset === null) return undefined;
  return `${formatDate(year, month, day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}${offset}`;
}

/** "" for no offset, "Z" for UTC, "±HH:MM" otherwise; null for an impossible offset. */
function formatOffset(raw: string | undefined): string | null {
  if (raw === undefined) return "";
  if (/^(?:z|utc|gmt)$/i.test(raw)) return "Z";
  const m = /^([-+−])(\d{2}):?(\d{2})?$/.exec(raw);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 23 || minutes > 59) return null;
  return `${m[1] === "+" ? "+" : "-"}${pad(hours)}:${pad(minutes)}`;
}

// ---------------------------------------------------------------- url, email

const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"'`]+/i;

function extractUrl(raw: string): string | undefined {
  const m = URL_CANDIDATE.exec(raw);
  if (!m) return undefined;
  const url = trimUrlTail(m[0]);
  try {
    const parsed = new URL(url);
    if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.hostname === "") return undefined;
  } catch {
    return undefined;
  }
  return url;
}

/** Drops sentence punctuation and closing brackets that the URL did not open. */
function trimUrlTail(url: string): string {
  let s = url;
  for (;;) {
    const last = s.at(-1);
    if (last !== undefined && ".,;:!?*_~".includes(last)) {
      s = s.slice(0, -1);
      continue;
    }
    const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
    const open = last === undefined ? undefined : pairs[last];
    if (open !== undefined && count(s, open) < count(s, last!)) {
      s = s.slice(0, -1);
      continue;
    }
    return s;
  }
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

const EMAIL =
  /(?<![A-Za-z0-9.!#$%&'*+/=?^_`{|}~-])[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}(?![A-Za-z0-9-])/;

function extractEmail(raw: string): string | undefined {
  return EMAIL.exec(raw)?.[0];
}
