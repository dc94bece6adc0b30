/**
 * A linear pre-scan of Markdown container nesting (block quotes and list
 * items), made before the parser sees the text: the parser's work grows
 * faster than the square of that depth (200 KB of `>` and `- ` took it
 * minutes, 20 KB of nested list items over half a minute, then a stack
 * overflow). The scan follows each line's container markers and the
 * indentation that nests list items, a little generously: it never counts
 * fewer levels than the parser would open.
 */
import { nestsTooDeep } from "../common/refusals.js";

/**
 * Container nesting allowed. Written Markdown rarely nests past 6 levels,
 * generated outlines past 20; at 64 the parser still reads a document of
 * nothing but maximally nested lines in well under a second per 100 KB.
 */
export const MAX_MARKDOWN_NESTING = 64;

/** A thematic break (`- - -`, `***`) behind any quote markers: its dashes are no list markers. */
const THEMATIC_BREAK = /^[ \t>]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^(`{3,}|~{3,})/;

/** The containers opened by one line's prefix: quote markers, and list items with their content columns. */
interface LinePrefix {
  quotes: number;
  /** Column of the first list marker, when the line opens list items. */
  firstMarker: number;
  /** Content column of each list item the line opens. */
  items: number[];
  /** Where the text after the prefix starts. */
  rest: number;
}

/** Width of a list marker at `at` (`-`, `+`, `*`, `1.`, `12)`), or 0 when there is none. */
function markerWidth(line: string, at: number): number {
  const ch = line[at];
  let end = at;
  if (ch === "-" || ch === "+" || ch === "*") end = at + 1;
  else {
    while (end < line.length && end - at < 9 && line.charCodeAt(end) >= 48 && line.charCodeAt(end) <= 57) end++;
    if (end === at || (line[end] !== "." && line[end] !== ")")) return 0;
    end++;
  }
  const next = line[end];
  return next === undefined || next === " " || next === "\t" ? end - at : 0;
}

/** Reads the quote and list markers that open a line, stopping once there are more than `max`. */
function linePrefix(line: string, listsAllowed: boolean, max: number): LinePrefix {
  const prefix: LinePrefix = { quotes: 0, firstMarker: -1, items: [], rest: 0 };
  let at = 0;
  let column = 0;
  while (prefix.quotes + prefix.items.length <= max) {
    while (line[at] === " " || line[at] === "\t") column = line[at++] === "\t" ? column + 4 - (column % 4) : column + 1;
    if (line[at] === ">") {
      prefix.quotes++;
      at++;
      column++;
      continue;
    }
    const width = listsAllowed ? markerWidth(line, at) : 0;
    if (width === 0) break;
    if (prefix.firstMarker < 0) prefix.firstMarker = column;
    at += width;
    column += width;
    let gap = 0;
    while (line[at + gap] === " " && gap < 5) gap++;
    prefix.items.push(column + (gap >= 1 && gap <= 4 ? gap : 1));
  }
  prefix.rest = at;
  return prefix;
}

/**
 * Throws "document nests deeper than N levels" when some line of `source`
 * sits inside more than `limit` containers. Lines inside fenced code are
 * skipped; a list item stays open until a marker at a lower column.
 */
export function checkMarkdownNesting(source: string, limit: number = MAX_MARKDOWN_NESTING): void {
  const open: number[] = [];
  let fence: string | undefined;
  let start = 0;
  while (start <= source.length) {
    const newline = source.indexOf("\n", start);
    const end = newline < 0 ? source.length : newline;
    const line = source.slice(start, end);
    start = end + 1;
    const prefix = linePrefix(line, fence === undefined && !THEMATIC_BREAK.test(line), limit);
    const opener = FENCE.exec(line.slice(prefix.rest, prefix.rest + 64))?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener !== undefined) fence = opener;
    if (prefix.items.length > 0) {
      while (open.length > 0 && (open.at(-1) ?? 0) > prefix.firstMarker) open.pop();
    }
    if (prefix.quotes + open.length + prefix.items.length > limit) throw nestsTooDeep(limit);
    open.push(...prefix.items);
  }
}
