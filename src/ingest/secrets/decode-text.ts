/**
 * Turns file content into the text the content rules read, or says it is
 * binary and not to be scanned.
 */

/** Leading bytes (or characters, for string input) inspected for a NUL. */
export const BINARY_SNIFF_LENGTH = 8 * 1024;

const utf8 = new TextDecoder("utf-8");
const utf16le = new TextDecoder("utf-16le");
const utf16be = new TextDecoder("utf-16be");

/**
 * The content as text, or `null` when it is binary (a NUL within the first
 * 8 KiB). Bytes are decoded as UTF-8 with replacement characters for invalid
 * sequences; a UTF-16 byte-order mark selects UTF-16 instead (whose ASCII
 * would otherwise look binary).
 */
export function decodeScannableText(content: Uint8Array | string): string | null {
  if (typeof content === "string") {
    return content.slice(0, BINARY_SNIFF_LENGTH).includes("\0") ? null : content;
  }
  if (content.length >= 2) {
    if (content[0] === 0xff && content[1] === 0xfe) return utf16le.decode(content);
    if (content[0] === 0xfe && content[1] === 0xff) return utf16be.decode(content);
  }
  const sniff = content.subarray(0, BINARY_SNIFF_LENGTH);
  if (sniff.includes(0)) return null;
  return utf8.decode(content);
}
