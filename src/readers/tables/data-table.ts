/**
 * What the row-oriented readers (CSV/TSV, JSON Lines) share: the cap on
 * how many records become factions, and the claim that summarises a whole
 * table.
 */
import { capCellText } from "../common/sentences.js";

/**
 * Records after this many are counted but not read: a table of millions of
 * rows would otherwise become millions of factions and cells, drowning the
 * prose of the project in one data file.
 */
export const MAX_DATA_ROWS = 50_000;

/** Column names listed in a table's summary; wider tables end the list with "…". */
const MAX_SUMMARY_COLUMNS = 50;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * "columns: a, b, c; 120 rows" (or "3 columns; 120 rows" without names),
 * noting when only the first {@link MAX_DATA_ROWS} were read.
 */
export function tableSummary(label: string, names: readonly string[], width: number, count: number, noun: string): string {
  const shown = names.slice(0, MAX_SUMMARY_COLUMNS).join(", ") + (names.length > MAX_SUMMARY_COLUMNS ? ", …" : "");
  const columns = names.length > 0 ? `${label}: ${shown}; ` : width > 0 ? `${plural(width, label.replace(/s$/, ""))}; ` : "";
  const read = count > MAX_DATA_ROWS ? `; first ${MAX_DATA_ROWS} read` : "";
  return capCellText(`${columns}${plural(count, noun)}${read}`)[0] ?? "";
}
