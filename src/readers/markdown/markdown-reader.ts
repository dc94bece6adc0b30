/**
 * Markdown (CommonMark + GFM tables, task lists, strikethrough, YAML front
 * matter): one faction per top-level block, cells per sentence, list item,
 * table row, code-block head and front-matter key, each under its heading.
 * A re-reading of an edited document parses only the parts that changed
 * (see `markdown-incremental.ts`); the output is the same either way.
 */
import { DocumentBuilder } from "../common/document-builder.js";
import { readableText } from "../common/refusals.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { MarkdownPartCache, readMarkdownSource } from "./markdown-incremental.js";
import { checkMarkdownNesting } from "./markdown-nesting.js";

const MARKDOWN_TYPES = new Set(["text/markdown", "text/x-markdown"]);
const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdown", ".mkd", ".mkdn"];

/**
 * The previous readings this thread keeps. Each reader thread loads the
 * registry once and keeps it, so this cache lives as long as the thread:
 * a file re-read in the thread that read it last parses only its changed
 * parts; anywhere else it is parsed whole once.
 */
const partCache = new MarkdownPartCache();

/**
 * Refuses noise ("file is not text") and nesting past
 * `MAX_MARKDOWN_NESTING` before parsing: both cost the parser far more
 * than their size. Under that depth the parser reads long nested lists in
 * time linear in their length (the hostile-document tests hold it to that).
 */
function readMarkdown(input: ReaderInput): ReadOutput {
  const source = readableText(input.bytes);
  // Bytes that are not text (a NUL) give an empty reading, as the secret scan skipped them.
  if (source === undefined) return new DocumentBuilder().finish();
  checkMarkdownNesting(source);
  return readMarkdownSource(source, input.path, partCache);
}

/** Reader for Markdown files (`text/markdown`, `.md`, `.markdown`, …). */
export const markdownReader: Reader = {
  name: "markdown",
  accepts({ path, contentType }) {
    const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
    const lower = path.toLowerCase();
    return MARKDOWN_TYPES.has(mediaType) || MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext));
  },
  read: readMarkdown,
};
