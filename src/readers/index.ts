/**
 * The registry of readers, tried in order: specific formats first, then
 * plain text, then runs of lines for any other readable file (so no text
 * file is left unread). A new reader is one file and one line here.
 */
import { codeReader } from "./code/code-reader.js";
import { configReader } from "./config/config-reader.js";
import { csvReader } from "./tables/csv-reader.js";
import { docxReader } from "./docx/docx-reader.js";
import { htmlReader } from "./html/html-reader.js";
import { jsonlReader } from "./tables/jsonl-reader.js";
import { markdownReader } from "./markdown/markdown-reader.js";
import { pdfReader } from "./pdf/pdf-reader.js";
import type { Reader, ReaderInput } from "./reader.js";
import { subtitleReader } from "./subtitle/subtitle-reader.js";
import { lexicalReader } from "./text/lexical-reader.js";
import { textReader } from "./text/text-reader.js";

/** Every reader, in the order they are tried. */
export const readers: readonly Reader[] = [
  codeReader,
  markdownReader,
  htmlReader,
  pdfReader,
  docxReader,
  csvReader,
  jsonlReader,
  configReader,
  subtitleReader,
  textReader,
  lexicalReader,
];

/** The first reader that accepts the file, or undefined when none does. */
export function readerFor(input: Pick<ReaderInput, "path" | "contentType">): Reader | undefined {
  return readers.find((reader) => reader.accepts(input));
}
