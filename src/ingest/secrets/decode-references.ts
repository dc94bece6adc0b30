/**
 * The text a credential could hide behind: HTML character references and
 * JSON/JavaScript string escapes decoded, in one linear pass, keeping what
 * the scanner needs to report a match on the line of the original text.
 */
import { htmlReferenceAt } from "./html-references.js";
import { DecodeSink } from "./decode-sink.js";
import type { DecodedText } from "./decode-sink.js";
import { jsEscapeAt } from "./js-escapes.js";

export type { DecodedText } from "./decode-sink.js";

/**
 * `text` with every HTML character reference (named, decimal, hex) and
 * every `\uXXXX`, `\u{…}`, `\xXX` and `\/` escape decoded, or undefined when
 * it holds none (the common case: then there is nothing more to scan).
 * One pass, each character looked at a bounded number of times, whatever
 * the input; a decoded value is not decoded again.
 */
export function decodeReferences(text: string): DecodedText | undefined {
  let amp = text.indexOf("&");
  let slash = text.indexOf("\\");
  if (amp < 0 && slash < 0) return undefined;
  const sink = new DecodeSink(text);
  while (amp >= 0 || slash >= 0) {
    const at = slash < 0 || (amp >= 0 && amp < slash) ? amp : slash;
    const end = at === amp ? htmlReferenceAt(text, at, sink) : jsEscapeAt(text, at, sink);
    const next = end > at ? end : at + 1;
    if (amp >= 0 && amp < next) amp = text.indexOf("&", next);
    if (slash >= 0 && slash < next) slash = text.indexOf("\\", next);
  }
  return sink.finish();
}

/** How many of ascending `offsets` are below `index`. */
export function countBelow(offsets: Int32Array, index: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid]! < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
