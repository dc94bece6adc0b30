import type { SourceLocation } from "../../vocabulary.js";
import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";
import { retireFileCode } from "../code/retire-file-code.js";
import { notePurge } from "../search/search-index.js";
import { rowidIn, rowidsOf } from "./row-keys.js";
import { PURGED_CELL } from "./cells.js";

/** What the diff needs of a live faction. */
export interface FactionKey {
  factionId: string;
  contentHash: string;
  ordinal: number;
  lineStart: number | null;
  lineEnd: number | null;
  headingPath: string;
  /** Its text is stored as lines of the chunk read (see faction-text.ts). */
  textAtLines: boolean;
}

export interface NewFaction {
  factionId: string;
  projectId: string;
  fileId: string;
  contentHash: string;
  ordinal: number;
  factionType: string;
  inferredType: string;
  location: SourceLocation;
  headingPath: string;
  text: string;
  /** Store the text as lines of the chunk read instead (see faction-text.ts). */
  textAtLines?: boolean;
}

const COLUMNS = [
  "faction_id", "file_rowid", "content_hash", "ordinal", "kind_rowid",
  "line_start", "line_end", "pdf_page_start", "pdf_page_end", "audio_start_ms", "video_start_ms",
  "heading_path", "text", "text_at_lines",
] as const;

/**
 * The characters of a content hash that are stored and compared (66 bits of
 * a base64url SHA-256, `0044-faction-hash-chars.sql`): the hash only tells
 * a file's live factions apart at its next reading, and the whole 43 took
 * 0.4 MB on vuejs/core, 22 of them 2.5 MB of a 1 M-line tree.
 */
const STORED_HASH_CHARS = 11;

/** A content hash as stored, and as the diff compares it with the stored ones. */
export function storedHash(contentHash: string): string {
  return contentHash.slice(0, STORED_HASH_CHARS);
}

/** The file's live factions, in file order. */
export async function liveFactionKeys(q: Queryable, fileId: string): Promise<FactionKey[]> {
  const rows = await q.all<{
    faction_id: string; content_hash: string; ordinal: number; line_start: number | null; line_end: number | null; heading_path: string; text_at_lines: number;
  }>(
    "SELECT faction_id, content_hash, ordinal, line_start, line_end, heading_path, text_at_lines FROM factions WHERE file_id = ? AND retired_at IS NULL ORDER BY ordinal",
    [fileId],
  );
  return rows.map((r) => ({
    factionId: r.faction_id,
    contentHash: r.content_hash,
    ordinal: Number(r.ordinal),
    lineStart: r.line_start === null ? null : Number(r.line_start),
    lineEnd: r.line_end === null ? null : Number(r.line_end),
    headingPath: r.heading_path,
    textAtLines: Number(r.text_at_lines) === 1,
  }));
}

/** Inserts factions into `faction_rows`, their file named by rowid (`0032-faction-cell-rowids.sql`). */
export async function insertFactions(q: Queryable, factions: readonly NewFaction[]): Promise<void> {
  if (factions.length === 0) return;
  const files = await rowidsOf(q, "files", factions.map((f) => f.fileId));
  const kinds = await kindRowids(q, factions);
  await insertRows(
    q,
    "faction_rows",
    COLUMNS,
    factions.map((f) => [
      f.factionId, rowidIn(files, f.fileId, "file"), storedHash(f.contentHash), f.ordinal, kinds.get(kindKey(f))!,
      f.location.lineStart ?? null, f.location.lineEnd ?? null, f.location.pdfPageStart ?? null, f.location.pdfPageEnd ?? null,
      f.location.audioStartMs ?? null, f.location.videoStartMs ?? null, f.headingPath, f.textAtLines ? "" : f.text, f.textAtLines ? 1 : 0,
    ]),
  );
}

const kindKey = (f: NewFaction): string => `${f.factionType}\u0000${f.inferredType}`;

/**
 * The `faction_kinds` rowid of each (type, inferred type) pair among these
 * factions, added when new (`0037-faction-kinds.sql`): a handful of pairs
 * a batch, so one statement each.
 */
async function kindRowids(q: Queryable, factions: readonly NewFaction[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const f of factions) {
    const key = kindKey(f);
    if (out.has(key)) continue;
    await q.execute("INSERT OR IGNORE INTO faction_kinds (faction_type, inferred_type) VALUES (?, ?)", [f.factionType, f.inferredType]);
    const row = await q.get<{ kind_rowid: number }>("SELECT kind_rowid FROM faction_kinds WHERE faction_type = ? AND inferred_type = ?", [
      f.factionType,
      f.inferredType,
    ]);
    out.set(key, Number(row!.kind_rowid));
  }
  return out;
}

/** Stores a kept faction's text in the row, or as its lines of the chunk read (see faction-text.ts). */
export async function storeFactionText(q: Queryable, factionId: string, text: string, atLines: boolean): Promise<void> {
  await q.execute("UPDATE faction_rows SET text = ?, text_at_lines = ? WHERE faction_id = ?", [atLines ? "" : text, atLines ? 1 : 0, factionId]);
}

/** Moves a kept faction to its new place in the file. */
export async function placeFaction(
  q: Queryable,
  factionId: string,
  p: { ordinal: number; location: SourceLocation; headingPath: string },
): Promise<void> {
  await q.execute(
    `UPDATE faction_rows SET ordinal = ?, line_start = ?, line_end = ?, pdf_page_start = ?, pdf_page_end = ?,
       audio_start_ms = ?, video_start_ms = ?, heading_path = ? WHERE faction_id = ?`,
    [
      p.ordinal, p.location.lineStart ?? null, p.location.lineEnd ?? null, p.location.pdfPageStart ?? null,
      p.location.pdfPageEnd ?? null, p.location.audioStartMs ?? null, p.location.videoStartMs ?? null,
      p.headingPath, factionId,
    ],
  );
}

/**
 * What a retired faction keeps: its ids, file, type and anchors (ordinal,
 * lines, pages, times), for lineage. Its text, headings and content hash
 * go, so replaced or removed content (a secret, say) is not kept.
 */
const PURGED_FACTION = "text = '', text_at_lines = 0, heading_path = '[]', content_hash = ''";

/** Retires factions and every cell cut from them, emptying their text. */
export async function retireFactions(q: Queryable, factionIds: readonly string[], now: string): Promise<void> {
  if (factionIds.length === 0) return;
  for (let i = 0; i < factionIds.length; i += 500) {
    const ids = factionIds.slice(i, i + 500);
    await q.execute(
      `UPDATE cell_rows SET retired_at = ?, ${PURGED_CELL}
       WHERE faction_rowid IN (SELECT rowid FROM faction_rows WHERE faction_id IN (${placeholders(ids.length)})) AND retired_at IS NULL`,
      [now, ...ids],
    );
    await q.execute(`UPDATE faction_rows SET retired_at = ?, ${PURGED_FACTION} WHERE faction_id IN (${placeholders(ids.length)})`, [now, ...ids]);
  }
  await notePurge(q, now);
}

const FILE_ROWID = "SELECT rowid FROM files WHERE file_id = ?";

/** Retires everything derived from a file, emptying the text of its factions and cells. */
export async function retireFileDerivations(q: Queryable, fileId: string, now: string): Promise<void> {
  await q.execute(`UPDATE cell_rows SET retired_at = ?, ${PURGED_CELL} WHERE file_rowid = (${FILE_ROWID}) AND retired_at IS NULL`, [now, fileId]);
  await q.execute(`UPDATE faction_rows SET retired_at = ?, ${PURGED_FACTION} WHERE file_rowid = (${FILE_ROWID}) AND retired_at IS NULL`, [now, fileId]);
  await retireFileCode(q, fileId, now);
  await notePurge(q, now);
}
