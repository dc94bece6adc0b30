/**
 * How a reader refuses a hostile document: an Error with a short message
 * free of the file's content (the ingest worker records the message as the
 * file's failure). Each refusal comes from a cheap linear check made before
 * a parser sees the input, so refusing costs no more than reading the
 * bytes once.
 */
import { decodeText, isReadableText } from "../../text/decode-text.js";

const MIB = 1024 * 1024;

/**
 * A document refused by one of these checks, as opposed to one a parser
 * failed on: code that wraps parser errors ("not a valid … file") lets
 * these pass unchanged.
 */
export class DocumentRefused extends Error {
  override name = "DocumentRefused";
}

/** "document nests deeper than N levels": nesting past a reader's cap. */
export function nestsTooDeep(limit: number): DocumentRefused {
  return new DocumentRefused(`document nests deeper than ${limit} levels`);
}

/** "document inflates past N MiB": compressed content past a reader's decoded-byte cap. */
export function inflatesTooFar(limitBytes: number): DocumentRefused {
  return new DocumentRefused(`document inflates past ${Math.round(limitBytes / MIB)} MiB`);
}

/** "document holds more than N elements": markup past a reader's element cap. */
export function tooManyElements(limit: number): DocumentRefused {
  return new DocumentRefused(`document holds more than ${limit} elements`);
}

/** The message of text that decodes to noise. */
export const NOT_TEXT = "file is not text";

/**
 * The text of a file a reader reads as text: undefined when the bytes are
 * binary (a NUL, as the secret scan skips them: the reading is empty);
 * throws {@link NOT_TEXT} when they decode but read as noise (random bytes
 * under a text name), before any parser spends time on them.
 */
export function readableText(bytes: Uint8Array): string | undefined {
  const text = decodeText(bytes);
  if (text !== undefined && !isReadableText(text)) throw new DocumentRefused(NOT_TEXT);
  return text;
}
