/**
 * HTML pages: the main content only (see `html-content.ts`), one faction
 * per block with the lines it spans in the source; headings thread the
 * sections as in Markdown; cells per sentence, list item and table row.
 */
import type { AnyNode } from "domhandler";
import { DocumentBuilder } from "../common/document-builder.js";
import type { BlockSpan } from "../common/document-builder.js";
import { fenceMediaType } from "../common/fence-media-type.js";
import { matchesKind } from "../common/file-kind.js";
import { isElement, mainContent } from "./html-content.js";
import { parseHtml } from "./html-parse.js";
import type { HtmlBlock } from "./html-blocks.js";
import { BLOCK_FACTION_TYPE, htmlBlocks } from "./html-blocks.js";
import { LineIndex } from "../common/line-index.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const HTML_EXTENSIONS = [".html", ".htm", ".xhtml"];

/**
 * Offset of the last character of a node in the source. An element closed
 * implicitly (`<p>` before the next `<p>`, `<li>` before `</ul>`) reports an
 * end that runs into what closed it, so it ends with its last child instead.
 */
function endOffset(node: AnyNode, source: string): number {
  let current = node;
  for (;;) {
    const end = current.endIndex ?? current.startIndex ?? 0;
    if (!isElement(current)) return end;
    const start = current.startIndex ?? 0;
    const tail = source.slice(Math.max(start, end - current.name.length - 16), end + 1).toLowerCase();
    const closes = tail.endsWith(">") && /<\/([a-z0-9-]+)\s*>$/.exec(tail)?.[1] === current.name;
    const last = current.children.at(-1);
    if (closes || last === undefined) return closes ? end : Math.max(source.indexOf(">", start), start);
    current = last;
  }
}

/** The block's range in the source, `[start, end)`, without surrounding whitespace. */
function sourceRange(block: HtmlBlock, source: string): [number, number] {
  let start = block.first.startIndex ?? 0;
  let end = endOffset(block.last, source) + 1;
  while (start < end && /\s/.test(source[start] ?? "")) start++;
  while (end > start && /\s/.test(source[end - 1] ?? "")) end--;
  return [start, end];
}

/**
 * The output of HTML blocks, of a page or of a converted Word document:
 * headings thread the sections, other blocks carry their cells. Spans are
 * typed `inferredType`, code blocks by their language; `place` gives each
 * block's location and faction text.
 */
export function readHtmlBlocks(
  blocks: Iterable<HtmlBlock>,
  inferredType: string,
  place: (block: HtmlBlock) => Pick<BlockSpan, "location" | "text">,
): ReadOutput {
  const builder = new DocumentBuilder();
  for (const block of blocks) {
    const span: BlockSpan = {
      factionType: BLOCK_FACTION_TYPE[block.kind],
      inferredType: block.kind === "code" ? fenceMediaType(block.lang) : inferredType,
      ...place(block),
    };
    if (block.kind === "heading") builder.heading(block.level ?? 1, block.cells[0] ?? "", span);
    else builder.block(span, block.cells);
  }
  return builder.finish();
}

/** Refuses noise ("file is not text") and elements nested past `MAX_HTML_NESTING` (see `html-parse.ts`). */
function readHtml(input: ReaderInput): ReadOutput {
  const source = readableText(input.bytes);
  // Bytes that are not text (a NUL) give an empty reading, as the secret scan skipped them.
  if (source === undefined) return new DocumentBuilder().finish();
  const doc = parseHtml(source, { withStartIndices: true, withEndIndices: true });
  const lines = new LineIndex(source);
  return readHtmlBlocks(htmlBlocks(mainContent(doc), { guessTableHeaders: false }), "text/html", (block) => {
    const [start, end] = sourceRange(block, source);
    return { location: lines.span(start, end), text: source.slice(start, end) };
  });
}

/** Reader for HTML pages (`text/html`, `.html`, `.htm`, `.xhtml`). */
export const htmlReader: Reader = {
  name: "html",
  accepts: (input) => matchesKind(input, HTML_EXTENSIONS, HTML_TYPES),
  read: readHtml,
};
