/**
 * Cells (claims) of one Markdown block: a sentence of prose, a list item, a
 * table row, the head of a code block.
 */
import { blockText, htmlText, inlineText } from "./markdown-inline.js";
import type { MarkdownBlock } from "./markdown-tree.js";
import { capCellText, collapseWhitespace, splitSentences } from "../common/sentences.js";

/**
 * A code block yields one cell: its first lines, verbatim. Commands and
 * signatures at the top of a block are what questions ask about, while a
 * long listing would crowd out the prose around it; the faction keeps the
 * whole block.
 */
export const CODE_CELL_MAX_LINES = 5;
/** Cap on a code cell's length, well under the prose cap: code is dense. */
export const CODE_CELL_MAX_CHARS = 500;

type Block<T extends MarkdownBlock["type"]> = Extract<MarkdownBlock, { type: T }>;

/** The first lines of a code block, or nothing for an empty block. */
export function codeCells(code: { readonly type?: string; readonly value: string }): string[] {
  const lines = code.value.split("\n").map((line) => line.trimEnd());
  const first = lines.findIndex((line) => line.length > 0);
  if (first < 0) return [];
  const head = lines.slice(first, first + CODE_CELL_MAX_LINES);
  while (head.at(-1) === "") head.pop();
  let text = head.join("\n");
  if (text.length > CODE_CELL_MAX_CHARS) {
    text = text.slice(0, CODE_CELL_MAX_CHARS).replace(/[\ud800-\udbff]$/, "").trimEnd();
  }
  return [text];
}

/**
 * A list item's own text is one cell (paragraphs joined; a task item keeps
 * its state as `[x]` / `[ ]`, which questions about open work need); nested
 * lists and other blocks follow as their own cells.
 */
function listItemCells(item: Block<"listItem">, depth: number): string[] {
  const own = item.children.filter((c) => c.type === "paragraph" || c.type === "heading");
  const rest = item.children.filter((c) => c.type !== "paragraph" && c.type !== "heading");
  let text = collapseWhitespace(own.map((c) => inlineText(c.inline)).join(" "));
  if (item.checked === true || item.checked === false) {
    text = `${item.checked ? "[x]" : "[ ]"} ${text}`.trimEnd();
  }
  return [...capCellText(text), ...rest.flatMap((child) => blockCells(child, depth + 1))];
}

/**
 * One cell per body row, "Header: value; Header: value" (empty values left
 * out). A table with no body rows yields its header names.
 */
function tableCells(table: Block<"table">): string[] {
  const [head, ...body] = table.rows;
  const headers = (head ?? []).map((c) => collapseWhitespace(inlineText(c)));
  if (body.length === 0) {
    const names = headers.filter((h) => h.length > 0).join("; ");
    return capCellText(names);
  }
  return body.flatMap((row) => {
    const pairs = row.flatMap((cell, i) => {
      const value = collapseWhitespace(inlineText(cell));
      const header = headers[i] ?? "";
      if (value.length === 0) return [];
      return [header.length > 0 ? `${header}: ${value}` : value];
    });
    return capCellText(pairs.join("; "));
  });
}

/**
 * Blocks nested deeper than this (quotes in quotes, lists in lists) are read
 * as one run of prose: no document needs more, and recursion must stay
 * bounded on input such as a line of thousands of `>`.
 */
const MAX_NESTING = 32;

/** The cells of any block node, nested blocks included, in document order. */
export function blockCells(node: MarkdownBlock, depth = 0): string[] {
  if (depth > MAX_NESTING) return splitSentences(blockText(node));
  switch (node.type) {
    case "paragraph":
      return splitSentences(inlineText(node.inline));
    case "heading":
      return capCellText(collapseWhitespace(inlineText(node.inline)));
    case "html":
      return splitSentences(htmlText(node.value));
    case "code":
      return codeCells(node);
    case "table":
      return tableCells(node);
    case "listItem":
      return listItemCells(node, depth);
    case "list":
    case "blockquote":
    case "footnoteDefinition":
      return node.children.flatMap((child) => blockCells(child, depth + 1));
    default:
      return [];
  }
}
