/**
 * JSON Lines (`.jsonl`, `.ndjson`): data records, read like CSV rows — one
 * `table` faction summarising the file ("fields: a, b; 120 records"; its
 * text the first record) and one `row` faction per line, whose cell joins
 * the record's leaves ("id: 1; user.name: Ada"). A line that is not JSON,
 * or nests deeper than `MAX_CONFIG_NESTING` (checked before parsing it),
 * keeps its faction and yields no cell.
 */
import { leafTexts } from "../config/config-claims.js";
import { jsonNestsWithin } from "../config/config-nesting.js";
import { MAX_DATA_ROWS, tableSummary } from "./data-table.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { matchesKind } from "../common/file-kind.js";
import { LineIndex } from "../common/line-index.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";
import { rowClaim } from "../common/table-rows.js";

const JSONL_TYPES = new Set(["application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/jsonlines"]);
const JSONL_EXTENSIONS = [".jsonl", ".ndjson"];
const INFERRED_TYPE = "application/x-ndjson";

/** Records whose keys make up the summary's field list. */
const FIELD_SAMPLE = 1_000;
/** Leaves of one record joined into its claim (the claim is capped at one cell anyway). */
const MAX_RECORD_LEAVES = 200;

interface Line {
  start: number;
  end: number;
}

function nonBlankLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    if (text.slice(start, end).trim().length > 0) lines.push({ start, end });
    start = end + 1;
  }
  return lines;
}

function parseRecord(text: string): { ok: boolean; value: unknown } {
  if (!jsonNestsWithin(text)) return { ok: false, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, value: undefined };
  }
}

function recordClaim(value: unknown): string {
  return rowClaim([], leafTexts(value, [], { left: MAX_RECORD_LEAVES }));
}

function addFields(fields: Set<string>, value: unknown): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const key of Object.keys(value)) fields.add(key);
  }
}

function readJsonLines(input: ReaderInput): ReadOutput {
  const text = readableText(input.bytes);
  const builder = new DocumentBuilder();
  // Bytes that are not text (a NUL) give an empty reading, as the secret scan skipped them.
  if (text === undefined) return builder.finish();
  const records = nonBlankLines(text);
  const first = records[0];
  if (first === undefined) return builder.finish();
  const index = new LineIndex(text);
  const read = records.slice(0, MAX_DATA_ROWS);
  const parsed = read.map((line) => parseRecord(text.slice(line.start, line.end)));
  const fields = new Set<string>();
  parsed.slice(0, FIELD_SAMPLE).forEach((p) => addFields(fields, p.value));
  const summary = tableSummary("fields", [...fields], 0, records.length, "record");
  const lastEnd = read.at(-1)?.end ?? first.end;
  const table = { factionType: "table" as const, inferredType: INFERRED_TYPE, location: index.span(first.start, lastEnd) };
  builder.block({ ...table, text: text.slice(first.start, first.end) }, [summary]);
  read.forEach((line, i) => {
    const record = parsed[i];
    const span = { factionType: "row" as const, inferredType: INFERRED_TYPE, location: index.span(line.start, line.end) };
    builder.block({ ...span, text: text.slice(line.start, line.end) }, record?.ok === true ? [recordClaim(record.value)] : []);
  });
  return builder.finish();
}

/** Reader for JSON Lines files (`.jsonl`, `.ndjson`, `application/x-ndjson`). */
export const jsonlReader: Reader = {
  name: "jsonl",
  accepts: (input) => matchesKind(input, JSONL_EXTENSIONS, JSONL_TYPES),
  read: readJsonLines,
};
