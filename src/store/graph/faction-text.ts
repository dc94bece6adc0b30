/**
 * A faction's text stored once: most code units, and most Markdown
 * headings, lists, text runs, tables and code blocks, are exactly lines
 * `line_start..line_end` of their file, which the store holds already (the
 * file's chunk). Such a faction is written with `text_at_lines = 1` and an
 * empty `text` (`0027-faction-text-at-lines.sql`), and its text is sliced
 * from the chunk its file was read from (`files.read_chunk_id`, which keeps
 * the chunk: see `releaseChunks`) when read. Which factions qualify is
 * decided by the same slicing that reads them back (`textAtLines`), so a
 * faction whose text is not its lines (a class without its members'
 * bodies, a config entry rewritten, a file in another encoding) keeps its
 * text. On vuejs/core 4.4 of the factions' 5.5 MB of text were code units,
 * and 1.1 MB of the 1.3 MB left were document factions at their lines.
 */
import type { Queryable } from "../db.js";
import { getChunkBytes } from "../files/chunks.js";

const BOM = "\uFEFF";
const utf8 = new TextDecoder("utf-8");

/** A chunk's lines as faction text is sliced from them: UTF-8, without a BOM, any line ending. */
export function chunkLines(bytes: Uint8Array): string[] {
  const text = utf8.decode(bytes);
  return (text.startsWith(BOM) ? text.slice(1) : text).split(/\r\n|\r|\n/);
}

/** Lines `start..end` (counted from 1) joined by LF. */
export function linesText(lines: readonly string[], start: number, end: number): string {
  return lines.slice(start - 1, end).join("\n");
}

/** What deciding a faction needs: its kind, text and lines. */
export interface SliceCandidate {
  readonly factionType: string;
  readonly text: string;
  readonly location: { readonly lineStart?: number | undefined; readonly lineEnd?: number | undefined };
}

/** Whether each faction's text is exactly its lines of `bytes` (undefined: none has lines). */
export function textAtLines(bytes: Uint8Array, factions: readonly SliceCandidate[]): boolean[] | undefined {
  if (!factions.some((f) => f.location.lineStart !== undefined)) return undefined;
  const lines = chunkLines(bytes);
  return factions.map((f) => {
    const { lineStart, lineEnd } = f.location;
    if (lineStart === undefined || lineEnd === undefined || f.text === "") return false;
    return linesText(lines, lineStart, lineEnd) === f.text;
  });
}

/** The columns a read of faction text selects beside it to fill a sliced one. */
export interface SlicedTextRow {
  text: string | null;
  text_at_lines: number | bigint | null;
  line_start: number | null;
  line_end: number | null;
  project_id: string;
  read_chunk_id: string | null;
}

/**
 * Fills, in place, the text of rows stored at lines from their file's read
 * chunk (each chunk read once). A chunk no longer stored gives an empty text:
 * the file is then queued for reading again, which writes its factions anew.
 */
export async function fillTextAtLines(q: Queryable, rows: SlicedTextRow[]): Promise<void> {
  const lines = new Map<string, string[]>();
  for (const r of rows) {
    if (Number(r.text_at_lines ?? 0) !== 1) continue;
    const key = `${r.project_id}\0${r.read_chunk_id ?? ""}`;
    let got = lines.get(key);
    if (!got) {
      const bytes = r.read_chunk_id === null ? undefined : await getChunkBytes(q, r.project_id, r.read_chunk_id);
      got = bytes ? chunkLines(bytes) : [];
      lines.set(key, got);
    }
    r.text = linesText(got, Number(r.line_start), Number(r.line_end));
  }
}
