/**
 * UTF-8 decoding for the text readers. Line endings are normalised to LF so
 * parsers see one convention; CRLF and a lone CR each count as one line
 * break (as CommonMark and editors count them), so line N of the result is
 * line N of the original file.
 */

const BOM = "\uFEFF";
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Replaces CRLF and lone CR with LF; the number of lines is unchanged. */
export function normaliseLineEndings(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

function finish(raw: string): string {
  return normaliseLineEndings(raw.startsWith(BOM) ? raw.slice(1) : raw);
}

/**
 * Decodes bytes as UTF-8, replacing malformed sequences with U+FFFD, dropping
 * a leading BOM and normalising line endings to LF.
 */
export function decodeText(bytes: Uint8Array): string {
  return finish(lenientDecoder.decode(bytes));
}

/**
 * Like {@link decodeText}, but answers `undefined` when the bytes are not
 * text: malformed UTF-8 or a NUL byte (which no text format uses and almost
 * every binary format contains).
 */
export function tryDecodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return finish(strictDecoder.decode(bytes));
  } catch {
    return undefined;
  }
}
