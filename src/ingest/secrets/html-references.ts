/**
 * HTML character references, decoded one at a time for the credential scan:
 * `&#95;`, `&#x5F;` and `&lowbar;` all say `_`, so `ghp&#95;…` in a page or
 * a Markdown file is a GitHub token once a browser (or our HTML reader)
 * shows it. Only the decoding matters here, not HTML's error handling.
 */
import type { DecodeSink } from "./decode-sink.js";

/**
 * Every named reference (WHATWG list) whose value is ASCII. The content
 * rules match ASCII only, so these are the names that can make or break a
 * match; the other two thousand names are left as they are (their `&` and
 * `;` end a token just as the character they stand for would).
 */
export const ASCII_NAMED_REFERENCES: ReadonlyMap<string, string> = new Map([
  ["Tab", "\t"], ["NewLine", "\n"], ["excl", "!"], ["quot", '"'], ["QUOT", '"'], ["num", "#"],
  ["dollar", "$"], ["percnt", "%"], ["amp", "&"], ["AMP", "&"], ["apos", "'"], ["lpar", "("],
  ["rpar", ")"], ["ast", "*"], ["midast", "*"], ["plus", "+"], ["comma", ","], ["period", "."],
  ["sol", "/"], ["colon", ":"], ["semi", ";"], ["lt", "<"], ["LT", "<"], ["equals", "="],
  ["gt", ">"], ["GT", ">"], ["quest", "?"], ["commat", "@"], ["lsqb", "["], ["lbrack", "["],
  ["bsol", "\\"], ["rsqb", "]"], ["rbrack", "]"], ["Hat", "^"], ["lowbar", "_"], ["UnderBar", "_"],
  ["grave", "`"], ["DiacriticalGrave", "`"], ["lcub", "{"], ["lbrace", "{"], ["verbar", "|"],
  ["vert", "|"], ["VerticalLine", "|"], ["rcub", "}"], ["rbrace", "}"], ["fjlig", "fj"],
]);

/** Names HTML also decodes without a `;` (the legacy ones with ASCII values). */
const LEGACY_NAMES = ["quot", "QUOT", "amp", "AMP", "lt", "LT", "gt", "GT"];

/** The names by their first character, so a `&` costs a few prefix checks and no allocation. */
const NAMES_BY_FIRST = new Map<number, Array<[string, string]>>();
for (const entry of ASCII_NAMED_REFERENCES) {
  const first = entry[0].charCodeAt(0);
  NAMES_BY_FIRST.set(first, [...(NAMES_BY_FIRST.get(first) ?? []), entry]);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

/** The code point a numeric reference stands for: U+FFFD for NUL, surrogates and values past Unicode. */
function referencedCodePoint(value: number): number {
  return value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff) ? 0xfffd : value;
}

/**
 * `&#NNN;` or `&#xHHH;` at `at` (the `&`), the `;` optional as browsers
 * allow. Leading zeros are read however many there are; the value saturates
 * past U+10FFFF, so each digit costs one step.
 */
function numericReference(text: string, at: number, sink: DecodeSink): number {
  let i = at + 2;
  const hex = text.charCodeAt(i) === 120 || text.charCodeAt(i) === 88; // x X
  if (hex) i++;
  const first = i;
  let value = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = hex ? hexValue(c) : isDigit(c) ? c - 48 : -1;
    if (digit < 0) break;
    value = Math.min(value * (hex ? 16 : 10) + digit, 0x110000);
  }
  if (i === first) return -1;
  if (text.charCodeAt(i) === 59) i++; // ;
  sink.codePoint(at, i, referencedCodePoint(value));
  return i;
}

/** `&name;` at `at`, or a legacy name without its `;` (`&amp`, `&lt`…). */
function namedReference(text: string, at: number, sink: DecodeSink): number {
  const candidates = NAMES_BY_FIRST.get(text.charCodeAt(at + 1));
  if (candidates === undefined) return -1;
  for (const [name, value] of candidates) {
    const end = at + 1 + name.length;
    if (text.charCodeAt(end) === 59 && text.startsWith(name, at + 1)) {
      sink.string(at, end + 1, value);
      return end + 1;
    }
  }
  const legacy = LEGACY_NAMES.find((name) => text.startsWith(name, at + 1));
  if (legacy === undefined) return -1;
  sink.string(at, at + 1 + legacy.length, ASCII_NAMED_REFERENCES.get(legacy)!);
  return at + 1 + legacy.length;
}

/**
 * Decodes the character reference at `at` (where `text` has a `&`) into
 * `sink` and returns where it ends, or -1 when no reference starts there.
 * Costs time proportional to the reference.
 */
export function htmlReferenceAt(text: string, at: number, sink: DecodeSink): number {
  return text.charCodeAt(at + 1) === 35 ? numericReference(text, at, sink) : namedReference(text, at, sink);
}
