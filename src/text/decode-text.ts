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
