/**
 * What one top-level Markdown block contributes to a reading, kept apart
 * from the reading it goes into: a heading (level, title) or a block (its
 * cells), each with its span. Items are what the parser's work buys, so
 * they are what a re-reading keeps for unchanged parts of a document; the
 * document builder then replays them in order, which is where heading paths
 * and parent cells come from, so reused items pick up the headings above
 * them as they stand now.
 */
import type { BlockSpan } from "../common/document-builder.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { fenceMediaType } from "../common/fence-media-type.js";
import { capCellText, collapseWhitespace } from "../common/sentences.js";
import type { FactionType } from "../reader.js";
import { frontMatterCells } from "./front-matter.js";
import { blockCells } from "./markdown-cells.js";
import { inlineText } from "./markdown-inline.js";
import type { MarkdownBlock, MarkdownTree } from "./markdown-tree.js";

/** One top-level block's part of a reading, lines counted from the start of the text it was parsed in. */
export type MarkdownItem =
  | { readonly kind: "heading"; readonly level: number; readonly title: string; readonly span: BlockSpan }
  | { readonly kind: "block"; readonly span: BlockSpan; readonly cells: readonly string[] };

/** Faction type of a top-level block; undefined for blocks that carry no content. */
function factionTypeOf(node: MarkdownBlock): FactionType | undefined {
  switch (node.type) {
    case "heading":
      return "heading";
    case "paragraph":
    case "blockquote":
    case "html":
    case "footnoteDefinition":
      return "text";
    case "list":
      return "list";
    case "table":
      return "table";
    case "code":
      return "code_block";
    case "yaml":
      return "config";
    default:
      return undefined;
  }
}

function inferredTypeOf(node: MarkdownBlock): string {
  if (node.type === "code") return fenceMediaType(node.lang);
  if (node.type === "yaml") return "application/yaml";
  if (node.type === "html") return "text/html";
  return "text/markdown";
}

/** Whether the last block of `node` (itself, or its last child's last block, and so on) is a fence or HTML block never closed. */
function endsUnclosed(node: MarkdownBlock): boolean {
  let last: MarkdownBlock | undefined = node;
  while (last !== undefined && "children" in last) last = last.children.at(-1);
  return last !== undefined && (last.type === "code" || last.type === "html") && last.unclosed;
}

const isBlank = (text: string, from: number, to: number): boolean => /^[ \t]*$/.test(text.slice(from, to));

/**
 * Where a top-level block's text starts and ends in `input`: from its
 * first character (an indented code block or an HTML block from its
 * line's start: the indent is the code's syntax, and HTML is kept as
 * written) to the end of its last line that is not blank.
 */
function blockRange(node: MarkdownBlock, tree: MarkdownTree, input: string): { start: number; end: number; lastLine: number } {
  const starts = tree.lineStarts;
  const lineEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1]! - 1 : input.length);
  const first = starts[node.start] ?? input.length;
  const indent = (node.type === "code" && !node.fenced) || node.type === "html" ? 0 : /^[ \t]*/.exec(input.slice(first, first + 8))![0].length;
  // A fence or HTML block never closed, last in the text, runs to its end, the final line feed included.
  const lines = input.endsWith("\n") ? starts.length - 1 : starts.length;
  if (node.end >= lines && endsUnclosed(node)) return { start: first + indent, end: input.length, lastLine: starts.length - 1 };
  let last = Math.max(node.start, node.end - 1);
  while (last > node.start && isBlank(input, starts[last]!, lineEnd(last))) last--;
  const end = lineEnd(last);
  return { start: first + indent, end, lastLine: last };
}

/**
 * The item of a top-level block parsed from `input`, or undefined for a
 * block that carries no content (a thematic break, a definition). Lines
 * are moved up by `lineShift` (the lines `input` holds before the part read).
 */
export function itemOf(node: MarkdownBlock, tree: MarkdownTree, input: string, lineShift = 0): MarkdownItem | undefined {
  const factionType = factionTypeOf(node);
  if (factionType === undefined) return undefined;
  const range = blockRange(node, tree, input);
  const span: BlockSpan = {
    factionType,
    inferredType: inferredTypeOf(node),
    location: { lineStart: node.start + 1 - lineShift, lineEnd: range.lastLine + 1 - lineShift },
    text: input.slice(range.start, range.end),
  };
  if (node.type === "heading") {
    const title = capCellText(collapseWhitespace(inlineText(node.inline)))[0] ?? "";
    return { kind: "heading", level: node.depth, title, span };
  }
  if (node.type === "yaml") return { kind: "block", span, cells: frontMatterCells(node.value) };
  return { kind: "block", span, cells: blockCells(node) };
}

/** A span with its lines moved down by `lines` (the lines of the document above its part). */
function shifted(span: BlockSpan, lines: number): BlockSpan {
  const { lineStart, lineEnd } = span.location;
  if (lines === 0 || lineStart === undefined || lineEnd === undefined) return span;
  return { ...span, location: { lineStart: lineStart + lines, lineEnd: lineEnd + lines } };
}

/** Adds the items of one part of a document, whose first line is line `lines + 1` of the document. */
export function replayItems(builder: DocumentBuilder, items: readonly MarkdownItem[], lines: number): void {
  for (const item of items) {
    if (item.kind === "heading") builder.heading(item.level, item.title, shifted(item.span, lines));
    else builder.block(shifted(item.span, lines), item.cells);
  }
}
