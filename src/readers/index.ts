/**
 * The registry of readers, tried in order: specific formats first, plain
 * text last as the catch-all. A new reader is one file and one line here.
 */
import { markdownReader } from "./markdown-reader.js";
import type { Reader, ReaderInput } from "./reader.js";
import { textReader } from "./text-reader.js";

/** Every reader, in the order they are tried. */
export const readers: readonly Reader[] = [markdownReader, textReader];

/** The first reader that accepts the file, or undefined when none does. */
export function readerFor(input: Pick<ReaderInput, "path" | "contentType">): Reader | undefined {
  return readers.find((reader) => reader.accepts(input));
}
