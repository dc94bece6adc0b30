import { lookupTable } from "../../lookup.js";

/**
 * Typed values found in a clause of prose, each with where it stands (so the
 * filler can take the one nearest the words that name the field): numbers
 * with their units, calendar dates and times as ISO 8601, durations, and
 * the tokens of string formats. A number that is part of a name (`SHA-256`,
 * `eu-west-1`), a version (`2.4.0`), a date or a clock time is not a number
 * here: "released on 12 March 2025" has no number 12 to give a count.
 */

/** A unit a number is stated in: its dimension and its size in the dimension's base (seconds, bytes). */
export interface Unit {
  dimension: "time" | "size" | "ratio";
  factor: number;
}

export interface Found<T> {
  value: T;
  start: number;
  end: number;
}

export interface NumberFound extends Found<number> {
  unit?: Unit;
  /** True when the number was written in words ("ten minutes"). */
  words?: boolean;
}

const TIME = lookupTable<number>({
  ms: 0.001, millisecond: 0.001, milliseconds: 0.001, millis: 0.001,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86_400, day: 86_400, days: 86_400,
  week: 604_800, weeks: 604_800,
  month: 2_592_000, months: 2_592_000,
  year: 31_536_000, years: 31_536_000,
});
const SIZE = lookupTable<number>({
  b: 1, byte: 1, bytes: 1,
  kb: 1024, kib: 1024, kilobyte: 1024, kilobytes: 1024,
  mb: 1024 ** 2, mib: 1024 ** 2, megabyte: 1024 ** 2, megabytes: 1024 ** 2,
  gb: 1024 ** 3, gib: 1024 ** 3, gigabyte: 1024 ** 3, gigabytes: 1024 ** 3,
  tb: 1024 ** 4, tib: 1024 ** 4, terabyte: 1024 ** 4, terabytes: 1024 ** 4,
});

/** The unit a word names, if any (`minutes`, `MB`, `%`). */
export function unitOf(word: string): Unit | undefined {
  const w = word.toLowerCase();
  if (w === "%" || w === "percent") return { dimension: "ratio", factor: 1 };
  if (TIME[w] !== undefined) return { dimension: "time", factor: TIME[w]! };
  if (SIZE[w] !== undefined) return { dimension: "size", factor: SIZE[w]! };
  return undefined;
}

/**
 * The unit a field states in its name or description (`timeoutMs`,
 * "largest upload in megabytes", `retentionDays`), if exactly one is named.
 * One-letter units (`s`, `d`, `h`) count only as a name's last part.
 */
export function fieldUnit(nameParts: readonly string[], description: string): Unit | undefined {
  const last = nameParts.at(-1)?.toLowerCase();
  const candidates = [...description.toLowerCase().split(/[^a-z%]+/), ...nameParts.map((p) => p.toLowerCase())].filter((w) => w.length > 1 || w === last);
  const units = candidates.map(unitOf).filter((u): u is Unit => u !== undefined);
  const distinct = new Map(units.map((u) => [`${u.dimension}:${u.factor}`, u]));
  return distinct.size === 1 ? [...distinct.values()][0] : undefined;
}

const SMALL = lookupTable<number>({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
});
const SCALE = lookupTable<number>({ hundred: 100, thousand: 1000, million: 1_000_000, billion: 1_000_000_000 });

/** Spans of the clause that hold names, versions, dates and times: no number is read inside them. */
function maskedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const patterns = [
    /[\p{L}_$][\p{L}\p{N}_$]*(?:[-_.][\p{L}\p{N}_$]+)+/gu, // SHA-256, eu-west-1, AES-256-GCM, v1.2
    /\b[\p{L}]+\d[\p{L}\p{N}]*\b/gu, // es2020, utf8
    /\b\d+(?:\.\d+){2,}\b/g, // 2.4.0
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g,
    /\b\d{1,2}:\d{2}(?::\d{2})?\b/g,
    /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
    /\bhttps?:\/\/\S+/g,
    /(?:^|\s)\/[\w./-]+/g,
  ];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) if (re !== patterns[0] || /\d/.test(m[0])) spans.push([m.index, m.index + m[0].length]);
  }
  for (const d of datesIn(text)) spans.push([d.start, d.end]);
  return spans;
}

/** Numbers of a clause (digits or words), each with the unit written right after it. */
export function numbersIn(text: string): NumberFound[] {
  const masked = maskedSpans(text);
  const free = (s: number, e: number) => !masked.some(([a, b]) => s < b && e > a);
  const found: NumberFound[] = [];
  for (const m of text.matchAll(/(?<![\p{L}\p{N}_.,-])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\p{N}])|(?<![\p{L}\p{N}_.,-])-?\d+(?:\.\d+)?(?![\p{N}.]\d)/gu)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!free(start, end)) continue;
    const value = Number(m[0].replace(/,/g, ""));
    if (!Number.isFinite(value)) continue;
    found.push({ value, start, end, ...unitAfter(text, end) });
  }
  for (const w of wordNumbers(text)) if (free(w.start, w.end)) found.push({ ...w, ...unitAfter(text, w.end), words: true });
  return found.sort((a, b) => a.start - b.start);
}

/** The unit right after a number (`600 seconds`, `25 MB`, `10%`), stretching the number's span over it. */
function unitAfter(text: string, end: number): { unit?: Unit; end?: number } {
  const m = /^\s?(%|[A-Za-z]+\b)/.exec(text.slice(end));
  if (!m) return {};
  const unit = unitOf(m[1]!);
  return unit ? { unit, end: end + m[0].length } : {};
}

/** Numbers written in words: "ten", "forty thousand", "twenty-five", "a hundred". */
function wordNumbers(text: string): Array<Found<number>> {
  const out: Array<Found<number>> = [];
  const re = /\b(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)(?:[\s-]+(?:and\s+)?(?=(?:one|two|three|four|five|six|seven|eight|nine|hundred|thousand|million|billion|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b))?)+\b/gi;
  for (const m of text.matchAll(re)) {
    let total = 0;
    let current = 0;
    for (const word of m[0].toLowerCase().split(/[\s-]+/)) {
      if (word === "and") continue;
      if (SMALL[word] !== undefined) current += SMALL[word]!;
      else if (word === "hundred") current = (current || 1) * 100;
      else if (SCALE[word] !== undefined) {
        total += (current || 1) * SCALE[word]!;
        current = 0;
      }
    }
    // "one" alone is as often a pronoun ("the previous one") as a count: it needs a unit to count.
    const value = total + current;
    if (m[0].toLowerCase() === "one" && !unitAfter(text, m.index + m[0].length).unit) continue;
    out.push({ value, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** A number in the unit a field asks for; undefined when the units are of different kinds. */
export function inUnit(n: NumberFound, wanted: Unit | undefined): number | undefined {
  if (!wanted || !n.unit) return n.value;
  if (wanted.dimension !== n.unit.dimension) return undefined;
  const v = (n.value * n.unit.factor) / wanted.factor;
  return Math.round(v * 1e6) / 1e6;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

/** A date or date-time found in text, as ISO 8601: `date` always, `dateTime` when a time of day is written with it. */
export interface DateFound extends Found<string> {
  dateTime?: string;
}

/** Calendar dates: ISO (`2025-04-30`, with a time: `2025-04-30T14:00Z`), `12 March 2025`, `March 12, 2025`. */
export function datesIn(text: string): DateFound[] {
  const out: DateFound[] = [];
  const iso = /\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s?(Z|UTC|[+-]\d{2}:?\d{2})?)?/gi;
  for (const m of text.matchAll(iso)) {
    const date = `${m[1]}-${m[2]}-${m[3]}`;
    const time = m[4] ? `${m[4]}:${m[5]}:${m[6] ?? "00"}${zone(m[7])}` : undefined;
    out.push({ value: date, start: m.index, end: m.index + m[0].length, ...(time && m[7] ? { dateTime: `${date}T${time}` } : {}) });
  }
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`, "gi");
  for (const m of text.matchAll(dayFirst)) push(out, m, Number(m[1]), m[2]!, Number(m[3]));
  const monthFirst = new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "gi");
  for (const m of text.matchAll(monthFirst)) push(out, m, Number(m[2]), m[1]!, Number(m[3]));
  return out.sort((a, b) => a.start - b.start);
}

function push(out: DateFound[], m: RegExpMatchArray, day: number, month: string, year: number): void {
  const mi = MONTHS.indexOf(month.slice(0, 3).toLowerCase()) + 1;
  if (mi < 1 || day < 1 || day > 31) return;
  out.push({ value: `${year}-${String(mi).padStart(2, "0")}-${String(day).padStart(2, "0")}`, start: m.index!, end: m.index! + m[0].length });
}

function zone(z: string | undefined): string {
  if (!z || /^(z|utc)$/i.test(z)) return "Z";
  return z.includes(":") ? z : `${z.slice(0, 3)}:${z.slice(3)}`;
}

/** Clock times (`02:00 UTC`, `14:30:05+01:00`) as RFC 3339 times; a zone is kept when written. */
export function timesIn(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  for (const m of text.matchAll(/(?<![\d-])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?(Z|UTC|GMT|[+-]\d{2}:?\d{2})\b)?/gi)) {
    if (Number(m[1]) > 23 || Number(m[2]) > 59) continue;
    const z = m[4] ? zone(m[4].toUpperCase() === "GMT" ? "Z" : m[4]) : "";
    out.push({ value: `${m[1]!.padStart(2, "0")}:${m[2]}:${m[3] ?? "00"}${z}`, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const ISO_UNIT = lookupTable<[string, boolean]>({
  "31536000": ["Y", false],
  "2592000": ["M", false],
  "604800": ["W", false],
  "86400": ["D", false],
  "3600": ["H", true],
  "60": ["M", true],
  "1": ["S", true],
});

/** A number with a unit of time as an ISO 8601 duration (`ten minutes` → `PT10M`, `90 days` → `P90D`). */
export function isoDuration(n: NumberFound): string | undefined {
  if (n.unit?.dimension !== "time" || n.value < 0) return undefined;
  const unit = ISO_UNIT[String(n.unit.factor)];
  if (!unit) return n.unit.factor === 0.001 ? `PT${n.value / 1000}S` : undefined;
  const [letter, timePart] = unit;
  return `P${timePart ? "T" : ""}${n.value}${letter}`;
}

/** Tokens of the string formats a field may name, found in text. */
export const FORMAT_TOKENS: Record<string, RegExp> = {
  email: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  uri: /\b[a-z][a-z0-9+.-]*:\/\/[^\s)>"'`]+/gi,
  url: /\bhttps?:\/\/[^\s)>"'`]+/gi,
  "uri-reference": /(?:\b[a-z][a-z0-9+.-]*:\/\/|(?<![\w])\/)[^\s)>"'`]+/gi,
  hostname: /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}\b/gi,
  ipv4: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g,
  ipv6: /\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{1,4}\b/gi,
  uuid: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
};

/** Every match of a format's token pattern in text, trailing sentence punctuation dropped. */
export function formatTokensIn(format: string, text: string): Array<Found<string>> {
  const re = FORMAT_TOKENS[format];
  if (!re) return [];
  return [...text.matchAll(re)].map((m) => {
    const value = m[0].replace(/[.,;:!?]+$/, "");
    return { value, start: m.index, end: m.index + value.length };
  });
}
