/**
 * The buffer the reference decoders write into, and what they produce: a
 * decoded text and where decoding added line breaks.
 */
import { endianness } from "node:os";

/** A text with its references decoded. */
export interface DecodedText {
  /** The decoded text; never longer than the original (every reference is longer than its value). */
  readonly text: string;
  /**
   * Ascending offsets in `text` of the line breaks that references produced
   * (`&#10;`, `\u000a`): the only difference in line count from the original.
   */
  readonly addedBreaks: Int32Array;
}

/**
 * Where the decoders write: the original text up to a reference is copied
 * as it is, then the reference's value. Code units go into one buffer as
 * long as the original (the decoded text is never longer), allocated at the
 * first reference, so a text full of references costs no allocation per
 * reference and a text with none (only `&&` and `\n`) costs none at all.
 */
export class DecodeSink {
  readonly #text: string;
  #out: Uint16Array | undefined;
  #n = 0;
  #copied = 0;
  #breaks = new Int32Array(16);
  #breakCount = 0;

  constructor(text: string) {
    this.#text = text;
  }

  /** Replaces `text[at, end)` by the one code point `codePoint`. */
  codePoint(at: number, end: number, codePoint: number): void {
    const out = this.#copyTo(at);
    if (codePoint > 0xffff) {
      out[this.#n++] = 0xd800 + ((codePoint - 0x10000) >> 10);
      out[this.#n++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
    } else this.#unit(out, codePoint);
    this.#copied = end;
  }

  /** Replaces `text[at, end)` by `value`. */
  string(at: number, end: number, value: string): void {
    const out = this.#copyTo(at);
    for (let k = 0; k < value.length; k++) this.#unit(out, value.charCodeAt(k));
    this.#copied = end;
  }

  /** The decoded text, or undefined when nothing was replaced. */
  finish(): DecodedText | undefined {
    if (this.#out === undefined) return undefined;
    const out = this.#copyTo(this.#text.length);
    return { text: codesToString(out, this.#n), addedBreaks: this.#breaks.slice(0, this.#breakCount) };
  }

  #unit(out: Uint16Array, code: number): void {
    if (code === 10) this.#addBreak(this.#n);
    out[this.#n++] = code;
  }

  #addBreak(offset: number): void {
    if (this.#breakCount === this.#breaks.length) {
      const grown = new Int32Array(this.#breaks.length * 2);
      grown.set(this.#breaks);
      this.#breaks = grown;
    }
    this.#breaks[this.#breakCount++] = offset;
  }

  /** Copies the original text up to `at` into the buffer (made on the first call) and returns the buffer. */
  #copyTo(at: number): Uint16Array {
    const text = this.#text;
    const out = (this.#out ??= new Uint16Array(text.length));
    let n = this.#n;
    for (let i = this.#copied; i < at; i++) out[n++] = text.charCodeAt(i);
    this.#n = n;
    return out;
  }
}

const utf16 = endianness() === "LE" ? new TextDecoder("utf-16le") : undefined;

/** The first `n` code units of `codes` as a string (lone surrogates become U+FFFD, one unit each). */
function codesToString(codes: Uint16Array, n: number): string {
  if (utf16) return utf16.decode(codes.subarray(0, n));
  const parts: string[] = [];
  for (let i = 0; i < n; i += 8192) parts.push(String.fromCharCode.apply(null, Array.from(codes.subarray(i, Math.min(n, i + 8192)))));
  return parts.join("");
}

