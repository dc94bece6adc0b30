/**
 * Claims of tabular data shared by the HTML, Word and delimited-text
 * readers: whether a first row names the columns, and how one row reads as
 * a cell ("Header: value; Header: value").
 */
import { capCellText, collapseWhitespace } from "./sentences.js";

/** A value that reads as a number, amount, percentage or date, not as a name. */
const DATA_LIKE = /^(?:[-+]?[$€£¥]?\d[\d,. _]*(?:%|[a-z]{0,3})?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}.*|true|false|null|n\/a)$/i;

/** A bare year, which column headers of reports often are. */
const YEAR = /^(?:19|20)\d\d$/;

function isDataLike(value: string): boolean {
  return DATA_LIKE.test(value.trim());
}

/**
 * Whether `first` is a header row: its values distinct and name-like (no
 * numbers, dates or booleans; a bare year passes), at most half left empty
 * (an unnamed index column, as data-frame exports write it). Files with a
 * header vastly outnumber files without, so a first row that could be
 * either counts as one; `rest` only decides when the first row is a single
 * value, which a header of one column and a list of names look alike in.
 */
export function looksLikeHeader(first: readonly string[], rest: readonly (readonly string[])[] = []): boolean {
  const names = first.map((v) => collapseWhitespace(v)).filter((n) => n.length > 0);
  if (names.length === 0 || names.length * 2 < first.length) return false;
  if (names.some((n) => n.length > 200 || (isDataLike(n) && !YEAR.test(n)))) return false;
  if (new Set(names.map((n) => n.toLowerCase())).size !== names.length) return false;
  if (first.length > 1) return true;
  const values = rest.slice(0, 50).map((row) => row[0] ?? "");
  return values.length === 0 || values.some((v) => isDataLike(v));
}

/**
 * One row as a claim: "Header: value" pairs joined by "; ", empty values
 * left out, values without a header given bare. Whitespace is collapsed and
 * the result capped at one cell's length (the rest of a very wide row is
 * dropped, not spread over further cells).
 */
export function rowClaim(headers: readonly string[], values: readonly string[]): string {
  const pairs: string[] = [];
  values.forEach((raw, i) => {
    const value = collapseWhitespace(raw);
    if (value.length === 0) return;
    const header = collapseWhitespace(headers[i] ?? "");
    pairs.push(header.length > 0 ? `${header}: ${value}` : value);
  });
  return capCellText(pairs.join("; "))[0] ?? "";
}
