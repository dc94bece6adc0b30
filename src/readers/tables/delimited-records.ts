/**
 * Records of delimited text (CSV, TSV) with their place in the source, via
 * papaparse: quoted fields may hold delimiters and line breaks, so a
 * record can span several lines.
 */
import Papa from "papaparse";

/** One record: its fields and `[start, end)` in the source, line break excluded. */
export interface DelimitedRecord {
  fields: string[];
  start: number;
  end: number;
}

const CANDIDATES = [",", ";", "\t", "|"];

/** Count of `ch` in `line` outside double quotes. */
function countOutsideQuotes(line: string, ch: string): number {
  let count = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ch && !quoted) count++;
  }
  return count;
}

/** The delimiter of a CSV file: whichever candidate the first line uses most (comma on a tie). */
export function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, Math.max(0, text.indexOf("\n")) || text.length).slice(0, 10_000);
  let best = ",";
  let bestCount = 0;
  for (const ch of CANDIDATES) {
    const count = countOutsideQuotes(firstLine, ch);
    if (count > bestCount) [best, bestCount] = [ch, count];
  }
  return best;
}

/**
 * Calls `visit` with each non-blank record in order. Text must use LF line
 * breaks (as `decodeText` leaves it).
 */
export function eachRecord(text: string, delimiter: string, visit: (record: DelimitedRecord) => void): void {
  let start = 0;
  Papa.parse<string[]>(text, {
    delimiter,
    newline: "\n",
    quoteChar: '"',
    skipEmptyLines: false,
    step(results) {
      const next = results.meta.cursor;
      let end = next;
      while (end > start && text[end - 1] === "\n") end--;
      const fields = results.data;
      if (fields.some((f) => f.trim().length > 0)) visit({ fields, start, end });
      start = next;
    },
  });
}
