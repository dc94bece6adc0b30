/**
 * Cells (claims) of one Markdown block: a sentence of prose, a list item, a
 * table row, the head of a code block.
 */
import type { Code, ListItem, Nodes, Table } from "mdast";
import { htmlText, inlineText } from "./markdown-inline.js";
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

/** Plain, whitespace-collapsed text of a node, cut to the cell cap. */
function flatCells(node: Nodes): string[] {
  return capCellText(collapseWhitespace(inlineText(node)));
}

/** The first lines of a code block, or nothing for an empty block. */
export function codeCells(code: Code): string[] {
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
function listItemCells(item: ListItem, depth: number): string[] {
  const own = item.children.filter((c) => c.type === "paragraph" || c.type === "heading");
  const rest = item.children.filter((c) => c.type !== "paragraph" && c.type !== "heading");
  let text = collapseWhitespace(own.map(inlineText).join(" "));
  if (item.checked === true || item.checked === false) {
    text = `${item.checked ? "[x]" : "[ ]"} ${text}`.trimEnd();
  }
  return [...capCellText(text), ...rest.flatMap((child) => blockCells(child, depth + 1))];
}

/**
 * One cell per body row, "Header: value; Header: value" (empty values left
 * out). A table with no body rows yields its header names.
 */
function tableCells(table: Table): string[] {
  const [head, ...body] = table.children;
  const headers = (head?.children ?? []).map((c) => collapseWhitespace(inlineText(c)));
  if (body.length === 0) {
    const names = headers.filter((h) => h.length > 0).join("; ");
    return capCellText(names);
  }
  return body.flatMap((row) => {
    const pairs = row.children.flatMap((cell, i) => {
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
export function blockCells(node: Nodes, depth = 0): string[] {
  if (depth > MAX_NESTING) return splitSentences(inlineText(node));
  switch (node.type) {
    case "paragraph":
      return splitSentences(inlineText(node));
    case "heading":
      return flatCells(node);
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
    case "root":
      return node.children.flatMap((child) => blockCells(child, depth + 1));
    default:
      return [];
  }
}
