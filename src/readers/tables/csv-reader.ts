/**
 * CSV and TSV: one `table` faction for the whole table (its cell a summary,
 * "columns: a, b; 120 rows"; its text the header line, since every record
 * is stored as its own faction) and one `row` faction per record (its cell
 * "a: 1; b: 2"). A first row that reads as names is the header. Records
 * after {@link MAX_DATA_ROWS} are counted, not read.
 */
import { MAX_DATA_ROWS, tableSummary } from "./data-table.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { eachRecord, guessDelimiter } from "./delimited-records.js";
import type { DelimitedRecord } from "./delimited-records.js";
import { extensionOf, matchesKind, mediaTypeOf } from "../common/file-kind.js";
import { LineIndex } from "../common/line-index.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";
import { collapseWhitespace } from "../common/sentences.js";
import { looksLikeHeader, rowClaim } from "../common/table-rows.js";

const TSV_TYPES = new Set(["text/tab-separated-values"]);
const TSV_EXTENSIONS = [".tsv", ".tab"];
const CSV_TYPES = new Set(["text/csv", "application/csv", "text/x-csv", ...TSV_TYPES]);
const CSV_EXTENSIONS = [".csv", ...TSV_EXTENSIONS];

/** Rows looked at to tell a header of one column from data. */
const HEADER_SAMPLE_ROWS = 50;

function isTsv(input: ReaderInput): boolean {
  return TSV_EXTENSIONS.includes(extensionOf(input.path)) || TSV_TYPES.has(mediaTypeOf(input.contentType));
}

/** The first {@link MAX_DATA_ROWS} + 1 records (room for a header) and the total count. */
function collect(text: string, delimiter: string): { records: DelimitedRecord[]; total: number } {
  const records: DelimitedRecord[] = [];
  let total = 0;
  eachRecord(text, delimiter, (record) => {
    total++;
    if (records.length <= MAX_DATA_ROWS) records.push(record);
  });
  return { records, total };
}

function readDelimited(input: ReaderInput): ReadOutput {
  const text = readableText(input.bytes);
  // Bytes that are not text (a NUL) give an empty reading, as the secret scan skipped them.
  if (text === undefined) return new DocumentBuilder().finish();
  const tsv = isTsv(input);
  const inferredType = tsv ? "text/tab-separated-values" : "text/csv";
  const { records, total } = collect(text, tsv ? "\t" : guessDelimiter(text));
  const builder = new DocumentBuilder();
  const first = records[0];
  if (first === undefined) return builder.finish();
  const sample = records.slice(1, HEADER_SAMPLE_ROWS + 1).map((r) => r.fields);
  const header = looksLikeHeader(first.fields, sample) ? records.shift() : undefined;
  const rows = records.slice(0, MAX_DATA_ROWS);
  const names = header?.fields.map(collapseWhitespace) ?? [];
  const width = Math.max(names.length, ...rows.slice(0, HEADER_SAMPLE_ROWS).map((r) => r.fields.length));
  const lines = new LineIndex(text);
  const lastEnd = rows.at(-1)?.end ?? first.end;
  const named = names.filter((n) => n.length > 0);
  const summary = tableSummary("columns", named, width, total - (header === undefined ? 0 : 1), "row");
  builder.block(
    { factionType: "table", inferredType, location: lines.span(first.start, lastEnd), text: text.slice(first.start, first.end) },
    [summary],
  );
  for (const row of rows) {
    const span = { factionType: "row" as const, inferredType, location: lines.span(row.start, row.end), text: text.slice(row.start, row.end) };
    builder.block(span, [rowClaim(names, row.fields)]);
  }
  return builder.finish();
}

/** Reader for CSV and TSV files (`text/csv`, `text/tab-separated-values`, `.csv`, `.tsv`, `.tab`). */
export const csvReader: Reader = {
  name: "csv",
  accepts: (input) => matchesKind(input, CSV_EXTENSIONS, CSV_TYPES),
  read: readDelimited,
};
