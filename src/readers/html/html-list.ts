/**
 * Cells of HTML lists: one per item (its own text; nested lists follow as
 * their own cells, as in Markdown) and one per definition ("term:
 * definition").
 */
import type { AnyNode, Element } from "domhandler";
import { isDropped, isElement } from "./html-content.js";
import { nodesText } from "./html-text.js";
import { capCellText, collapseWhitespace } from "../common/sentences.js";

const LISTS = new Set(["ul", "ol", "dl"]);

/** Lists nested deeper than this are read as one item's text. */
const MAX_LIST_DEPTH = 32;

function flat(nodes: readonly AnyNode[]): string {
  return collapseWhitespace(nodesText(nodes));
}

function itemCells(li: Element, depth: number): string[] {
  const nested = (node: AnyNode): boolean => isElement(node) && LISTS.has(node.name) && !isDropped(node) && depth < MAX_LIST_DEPTH;
  const own = capCellText(flat(li.children.filter((c) => !nested(c))));
  const inner = li.children.filter(nested).flatMap((c) => listCells(c as Element, depth + 1));
  return [...own, ...inner];
}

/** "term: definition" per `<dd>`; a term with no definition stands alone. */
function definitionCells(dl: Element): string[] {
  const cells: string[] = [];
  let term = "";
  let defined = true;
  for (const child of dl.children) {
    if (!isElement(child) || isDropped(child)) continue;
    if (child.name === "dt") {
      if (!defined && term.length > 0) cells.push(...capCellText(term));
      term = flat(child.children);
      defined = false;
    } else if (child.name === "dd") {
      const definition = flat(child.children);
      cells.push(...capCellText(term.length > 0 ? `${term}: ${definition}` : definition));
      defined = true;
    }
  }
  if (!defined && term.length > 0) cells.push(...capCellText(term));
  return cells.filter((c) => c.length > 0);
}

/** The cells of a `<ul>`, `<ol>` or `<dl>`, nested lists included, in order. */
export function listCells(list: Element, depth = 0): string[] {
  if (list.name === "dl") return definitionCells(list);
  const cells: string[] = [];
  for (const child of list.children) {
    if (!isElement(child) || isDropped(child)) continue;
    if (child.name === "li") cells.push(...itemCells(child, depth));
    // A list put straight into a list (invalid, but common) counts as nested.
    else if (LISTS.has(child.name) && depth < MAX_LIST_DEPTH) cells.push(...listCells(child, depth + 1));
  }
  return cells.filter((c) => c.length > 0);
}
