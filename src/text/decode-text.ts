/**
 * The one rule for whether a file's bytes are text and what text they say.
 * The secret scan and every reader that reads text decode through here, so
 * the scan checks exactly the text the readers go on to store: a file the
 * scan skips as binary is one no reader reads as text. (PDF and Word files
 * are parsed from their bytes by their readers, not decoded here.)
 *
 * - A UTF-16 byte-order mark (`FF FE`, `FE FF`) selects UTF-16 (whose ASCII
 *   would otherwise look binary); anything else is read as UTF-8. A leading
 *   byte-order mark is dropped.
 * - A NUL character anywhere means binary: no text format uses one, and
 *   almost every binary format does.
 * - Bytes the encoding does not allow become U+FFFD: a stray Latin-1 byte
 *   does not make a file binary (it is text, and is scanned as such).
 * - CRLF and a lone CR each become one LF, so line N of the text is line N
 *   of the file (as CommonMark and editors count lines).
 * - Text that decodes but reads as noise (see {@link isReadableText}) is
 *   for readers to refuse; the decoding itself, which the scan relies on,
 *   does not change.
 */

type Encoding = "utf-8" | "utf-16le" | "utf-16be";

const BOM = "\uFEFF";
const ENCODINGS: readonly Encoding[] = ["utf-8", "utf-16le", "utf-16be"];
const lenient = new Map(ENCODINGS.map((e) => [e, new TextDecoder(e, { fatal: false, ignoreBOM: true })]));
const strict = new Map(ENCODINGS.map((e) => [e, new TextDecoder(e, { fatal: true, ignoreBOM: true })]));

/** Text decoded from bytes, and whether some bytes were not valid in its encoding. */
interface Decoded {
  text: string;
  malformed: boolean;
}

function encodingOf(bytes: Uint8Array): Encoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}

function normaliseLineEndings(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** The bytes as text, or undefined when they are binary. */
function sniff(bytes: Uint8Array): Decoded | undefined {
  const encoding = encodingOf(bytes);
  // In UTF-8 a NUL character is a NUL byte: refuse before decoding.
  if (encoding === "utf-8" && bytes.includes(0)) return undefined;
  let raw: string;
  let malformed = false;
  try {
    raw = strict.get(encoding)!.decode(bytes);
  } catch {
    raw = lenient.get(encoding)!.decode(bytes);
    malformed = true;
  }
  if (encoding !== "utf-8" && raw.includes("\0")) return undefined;
  return { text: normaliseLineEndings(raw.startsWith(BOM) ? raw.slice(1) : raw), malformed };
}

/**
 * The text of a file, or undefined when it is binary (holds a NUL). Bytes
 * invalid in the encoding are replaced, not refused.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
  return sniff(bytes)?.text;
}

/**
 * Like {@link decodeText}, but undefined also when some bytes are invalid in
 * the encoding: for files that only their bytes can show to be text (no
 * telling extension or media type), where a bad byte says "not text".
 */
export function decodeCleanText(bytes: Uint8Array): string | undefined {
  const decoded = sniff(bytes);
  return decoded && !decoded.malformed ? decoded.text : undefined;
}

/**
 * At most this share of a text's characters may be unreadable. Random bytes
 * decode to nearly three in five replacement characters and controls;
 * prose in a legacy single-byte encoding (its accents read as UTF-8) stays
 * under one in six even for the most accented Latin-script languages, and
 * stays readable.
 */
export const MAX_UNREADABLE_SHARE = 0.2;

/** Up to this many unreadable characters are allowed whatever the length: a short note with a few stray bytes is text. */
export const UNREADABLE_ALLOWANCE = 16;

/**
 * Whether the character is noise rather than text: U+FFFD (bytes the
 * encoding does not allow) or a C0 control other than tab, line feed, form
 * feed, carriage return and escape (which colours terminal logs), or DEL.
 */
function isUnreadable(code: number): boolean {
  if (code === 0xfffd || code === 0x7f) return true;
  return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d && code !== 0x1b;
}

/**
 * Whether decoded text is readable: no more than
 * {@link MAX_UNREADABLE_SHARE} of its characters (beyond an allowance of
 * {@link UNREADABLE_ALLOWANCE}) are replacement characters or stray
 * controls. Readers refuse text that is not ("file is not text"): parsing
 * megabytes of noise as prose costs seconds and yields only junk claims.
 * One linear pass, stopping as soon as the answer is known.
 */
export function isReadableText(text: string): boolean {
  const allowed = Math.max(UNREADABLE_ALLOWANCE, Math.floor(text.length * MAX_UNREADABLE_SHARE));
  let unreadable = 0;
  for (let i = 0; i < text.length; i++) {
    if (isUnreadable(text.charCodeAt(i)) && ++unreadable > allowed) return false;
  }
  return true;
}

/**
 * The text a binary-by-NUL file would read as with its NUL bytes left out,
 * when that is readable text ({@link isReadableText}); else undefined. For
 * the secret scan only: a Markdown file with one NUL in front is binary to
 * the readers (they store nothing of it) but its bytes are still kept and
 * served, so a credential in it must still be found. Real binaries (images,
 * archives) read as noise and stay unscanned.
 */
export function textButForNul(bytes: Uint8Array): string | undefined {
  if (!bytes.includes(0)) return undefined;
  const text = decodeText(withoutNul(bytes));
  return text !== undefined && isReadableText(text) ? text : undefined;
}

/**
 * The bytes with every NUL left out. A plain loop: `filter` with a callback
 * per byte took 3.8 s over the 18.5 MB of images and PDF files in the scale
 * benchmark's 1 M-line tree, which every credential scan of a binary paid
 * (in the accept and reader threads); this takes 45 ms.
 */
export function withoutNul(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0) out[n++] = b;
  }
  return out.subarray(0, n);
}
