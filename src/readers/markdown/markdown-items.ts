/**
 * What one top-level Markdown block contributes to a reading, kept apart
 * from the reading it goes into: a heading (level, title) or a block (its
 * cells), each with its span. Items are what the parser's work buys, so
 * they are what a re-reading keeps for unchanged parts of a document; the
 * document builder then replays them in order, which is where heading paths
 * and parent cells come from, so reused items pick up the headings above
 * them as they stand now.
 */
import type { RootContent } from "mdast";
import type { BlockSpan } from "../common/document-builder.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { fenceMediaType } from "../common/fence-media-type.js";
import { capCellText, collapseWhitespace } from "../common/sentences.js";
import type { FactionType } from "../reader.js";
import { frontMatterCells } from "./front-matter.js";
import { blockCells } from "./markdown-cells.js";
import { inlineText } from "./markdown-inline.js";

/** One top-level block's part of a reading, lines counted from the start of the text it was parsed in. */
export type MarkdownItem =
  | { readonly kind: "heading"; readonly level: number; readonly title: string; readonly span: BlockSpan }
  | { readonly kind: "block"; readonly span: BlockSpan; readonly cells: readonly string[] };

/** Faction type of a top-level block; undefined for blocks that carry no content. */
function factionTypeOf(node: RootContent): FactionType | undefined {
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

function inferredTypeOf(node: RootContent): string {
  if (node.type === "code") return fenceMediaType(node.lang);
  if (node.type === "yaml") return "application/yaml";
  if (node.type === "html") return "text/html";
  return "text/markdown";
}

/**
 * The item of a top-level node parsed from `input`, or undefined for a
 * node that carries no content (a thematic break, a definition). Lines are
 * moved up by `lineShift` (the lines `input` holds before the part read).
 */
export function itemOf(node: RootContent, input: string, lineShift = 0): MarkdownItem | undefined {
  const factionType = factionTypeOf(node);
  if (factionType === undefined) return undefined;
  const pos = node.position;
  const span: BlockSpan = {
    factionType,
    inferredType: inferredTypeOf(node),
    location: pos === undefined ? {} : { lineStart: pos.start.line - lineShift, lineEnd: pos.end.line - lineShift },
    text: pos?.start.offset === undefined ? "" : input.slice(pos.start.offset, pos.end.offset),
  };
  if (node.type === "heading") {
    const title = capCellText(collapseWhitespace(inlineText(node)))[0] ?? "";
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
