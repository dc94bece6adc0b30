/**
 * Where a faction sits in its file, as stored (columns) and as answered
 * (keys): one mapping for the factions read and for the sources of
 * retrieval rows, so a cell's span always equals its faction's location.
 */

/** The faction columns of a source span and the keys they are answered under. */
export const SPAN_KEYS = [
  ["line_start", "lineStart"],
  ["line_end", "lineEnd"],
  ["pdf_page_start", "pdfPageStart"],
  ["pdf_page_end", "pdfPageEnd"],
  ["audio_start_ms", "audioStartMs"],
  ["video_start_ms", "videoStartMs"],
] as const;

/** A span of a source: only the keys that apply (a column that does not apply is NULL, and its key is absent). */
export type SourceSpan = Partial<Record<(typeof SPAN_KEYS)[number][1], number>>;

/** The span columns of a faction row. */
export type SpanColumns = Partial<Record<(typeof SPAN_KEYS)[number][0], number | null>>;

/** The keys of a row's span that apply. */
export function spanOf(row: SpanColumns): SourceSpan {
  const out: SourceSpan = {};
  for (const [column, key] of SPAN_KEYS) {
    const v = row[column];
    if (v !== null && v !== undefined) out[key] = Number(v);
  }
  return out;
}
