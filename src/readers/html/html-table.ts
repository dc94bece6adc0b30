/**
 * Rows of an HTML table as claims. Column headers come from `<thead>` or a
 * first row of `<th>` cells (or, when asked, a first row that reads as a
 * header); each body row becomes "Header: value; …". A row led by a `<th>`
 * with no column headers reads "Label: value; value".
 */
import type { Element } from "domhandler";
import { isElement } from "./html-content.js";
import { nodesText } from "./html-text.js";
import { collapseWhitespace } from "../common/sentences.js";
import { looksLikeHeader, rowClaim } from "../common/table-rows.js";

/** Wider spans are taken for markup errors. */
const MAX_COLSPAN = 100;

interface Row {
  cells: string[];
  /** Whether every cell is a `<th>` or the row sits in `<thead>`. */
  header: boolean;
  /** Whether the row starts with a `<th>` (a row label). */
  labelled: boolean;
}

/** The rows, headers and caption of one table. */
export interface TableContent {
  caption: string;
  headers: string[];
  rows: string[][];
  /** Per body row: whether it starts with a `<th>` label. */
  labelled: boolean[];
}

function readRow(tr: Element, inHead: boolean): Row {
  const cells: string[] = [];
  const kinds: string[] = [];
  for (const cell of tr.children) {
    if (!isElement(cell) || (cell.name !== "td" && cell.name !== "th")) continue;
    const text = collapseWhitespace(nodesText(cell.children));
    const span = Math.min(MAX_COLSPAN, Math.max(1, Number.parseInt(cell.attribs.colspan ?? "1", 10) || 1));
    cells.push(text);
    kinds.push(cell.name);
    // A spanning header names every column it covers; a spanning value sits in its first.
    for (let i = 1; i < span; i++) {
      cells.push(cell.name === "th" ? text : "");
      kinds.push(cell.name);
    }
  }
  const header = inHead || (kinds.length > 0 && kinds.every((k) => k === "th"));
  return { cells, header, labelled: kinds[0] === "th" && kinds.some((k) => k === "td") };
}

/** The table's own rows in order, not those of tables nested in its cells. */
function tableRows(table: Element): Row[] {
  const rows: Row[] = [];
  for (const child of table.children) {
    if (!isElement(child)) continue;
    if (child.name === "tr") rows.push(readRow(child, false));
    if (child.name === "thead" || child.name === "tbody" || child.name === "tfoot") {
      for (const tr of child.children) {
        if (isElement(tr) && tr.name === "tr") rows.push(readRow(tr, child.name === "thead"));
      }
    }
  }
  return rows.filter((row) => row.cells.some((c) => c.length > 0));
}

/** Reads a table; `guessHeader` lets an unmarked first row count as the header. */
export function readTable(table: Element, guessHeader: boolean): TableContent {
  const rows = tableRows(table);
  const headRows: Row[] = [];
  while (rows[0]?.header === true) headRows.push(rows.shift() as Row);
  const first = rows[0];
  if (headRows.length === 0 && guessHeader && first !== undefined && rows.length > 1) {
    if (looksLikeHeader(first.cells, rows.slice(1).map((r) => r.cells))) headRows.push(rows.shift() as Row);
  }
  const width = Math.max(0, ...headRows.map((r) => r.cells.length));
  const headers = Array.from({ length: width }, (_, i) =>
    collapseWhitespace(headRows.map((r) => r.cells[i] ?? "").filter((c, j, all) => c.length > 0 && all.indexOf(c) === j).join(" ")),
  );
  const captionEl = table.children.find((c): c is Element => isElement(c) && c.name === "caption");
  return {
    caption: captionEl === undefined ? "" : collapseWhitespace(nodesText(captionEl.children)),
    headers,
    rows: rows.map((r) => r.cells),
    labelled: rows.map((r) => r.labelled),
  };
}

/**
 * The table's cells: its caption, then one claim per body row; a table of
 * headers only yields the header names.
 */
export function tableCells(content: TableContent): string[] {
  const cells = content.caption.length > 0 ? [content.caption] : [];
  if (content.rows.length === 0) {
    const names = content.headers.filter((h) => h.length > 0).join("; ");
    return names.length > 0 ? [...cells, rowClaim([], [names])] : cells;
  }
  content.rows.forEach((row, i) => {
    const [label = "", ...rest] = row;
    const claim = content.headers.length === 0 && content.labelled[i] === true && label.length > 0
      ? rowClaim([label], [rest.filter((v) => v.length > 0).join("; ")])
      : rowClaim(content.headers, row);
    if (claim.length > 0) cells.push(claim);
  });
  return cells;
}

/** The table as plain lines, one row a line, cells joined by " | ". */
export function tablePlainText(content: TableContent): string {
  const lines = [content.caption, content.headers.join(" | "), ...content.rows.map((r) => r.join(" | "))];
  return lines.filter((line) => line.replace(/[\s|]/g, "").length > 0).map((line) => line.trimEnd()).join("\n");
}
