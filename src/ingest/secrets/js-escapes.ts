/**
 * JSON and JavaScript string escapes, decoded one at a time for the
 * credential scan: `ghp\u005f…` in a JSON file is `ghp_…` to every parser
 * (and to our config reader, which stores the parsed value).
 */
import type { DecodeSink } from "./decode-sink.js";

const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

/** The value of the `count` hex digits at `from`, or -1 when one is not a hex digit. */
function fixedHex(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const digit = hexValue(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** `\u{H…}` at `at`: any number of hex digits (read once, the value saturating), then `}`. */
function bracedEscape(text: string, at: number, sink: DecodeSink): number {
  let i = at + 3;
  let value = 0;
  for (let digit = hexValue(text.charCodeAt(i)); digit >= 0; digit = hexValue(text.charCodeAt(++i))) {
    value = Math.min(value * 16 + digit, 0x110000);
  }
  if (i === at + 3 || text.charCodeAt(i) !== 125 || value > 0x10ffff) return -1; // }
  sink.codePoint(at, i + 1, value);
  return i + 1;
}

/** A fixed-width escape (`\xXX`, `\uXXXX`) of `digits` hex digits at `at`. */
function hexEscape(text: string, at: number, digits: number, sink: DecodeSink): number {
  const value = fixedHex(text, at + 2, digits);
  if (value < 0) return -1;
  sink.codePoint(at, at + 2 + digits, value);
  return at + 2 + digits;
}

/**
 * Decodes the escape at `at` (where `text` has a backslash) into `sink` and
 * returns where it ends, or -1 when it is not one decoded here. `\uXXXX`,
 * `\u{…}`, `\xXX` and `\/` are decoded; `\\` is an escaped backslash, passed
 * over (its end is returned, nothing is written) so that what follows it is
 * not read as an escape; `\n`, `\"` and the like stay as they are. Each half
 * of a `\uD83D\uDE00` pair decodes to its code unit, so the pair decodes to
 * its character.
 */
export function jsEscapeAt(text: string, at: number, sink: DecodeSink): number {
  const kind = text.charCodeAt(at + 1);
  if (kind === 92) return at + 2; // \\
  if (kind === 47) {
    sink.codePoint(at, at + 2, 47); // \/
    return at + 2;
  }
  if (kind === 120) return hexEscape(text, at, 2, sink); // \x
  if (kind !== 117) return -1; // \u
  return text.charCodeAt(at + 2) === 123 ? bracedEscape(text, at, sink) : hexEscape(text, at, 4, sink);
}
