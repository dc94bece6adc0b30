import type { Queryable } from "../db.js";
import { deleteSearchRows } from "./search-totals.js";

/** Characters of a file's cells indexed as its document body. */
export const DOCUMENT_BODY_CHARS = 200_000;

/**
 * Rewrites the full-text rows of one file after a reading: every live cell
 * (its text, and its context: file path and headings) and the file as one
 * document (path and first heading as title, its cells as body).
 */
export async function reindexFile(q: Queryable, fileId: string): Promise<void> {
  await unindexFile(q, fileId);
  await q.execute(
    `INSERT INTO cells_fts (rowid, text, context)
     SELECT c.rowid, c.text, fi.path || ' ' || f.heading_path
     FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fi ON fi.file_id = c.file_id
     WHERE c.file_id = ? AND c.retired_at IS NULL`,
    [fileId],
  );
  const doc = await q.get<{ rowid: number; path: string; title: string | null; body: string | null }>(
    `SELECT fi.rowid AS rowid, fi.path AS path,
       (SELECT c.text FROM cells c JOIN factions f ON f.faction_id = c.faction_id
         WHERE c.file_id = fi.file_id AND c.retired_at IS NULL AND f.faction_type = 'heading' ORDER BY c.ordinal LIMIT 1) AS title,
       (SELECT substr(group_concat(text, ' '), 1, ?) FROM (SELECT text FROM cells WHERE file_id = fi.file_id AND retired_at IS NULL ORDER BY ordinal)) AS body
     FROM files fi WHERE fi.file_id = ?`,
    [DOCUMENT_BODY_CHARS, fileId],
  );
  if (doc?.body) {
    await q.execute("INSERT INTO files_fts (rowid, title, body) VALUES (?, ?, ?)", [doc.rowid, `${doc.path} ${doc.title ?? ""}`, doc.body]);
  }
}

/** Removes a file and its cells (live or retired) from the full-text indexes. */
export async function unindexFile(q: Queryable, fileId: string): Promise<void> {
  await deleteSearchRows(q, "cells_fts", "SELECT rowid FROM cells WHERE file_id = ?", [fileId]);
  await deleteSearchRows(q, "files_fts", "SELECT rowid FROM files WHERE file_id = ?", [fileId]);
}

/**
 * Notes, in the caller's transaction, that text or bytes left the store:
 * the next purge rewrites the full-text indexes and truncates the WAL.
 */
export async function notePurge(q: Queryable, now: string): Promise<void> {
  await q.execute("INSERT INTO purge_pending (id, since) VALUES (1, ?) ON CONFLICT DO NOTHING", [now]);
}

/** The full-text tables; each is contentless, so a deleted row's terms stay in its segment until it is merged. */
const FTS_TABLES = ["cells_fts", "files_fts", "symbols_fts"] as const;

/**
 * When a purge is pending, clears the note and merges each full-text index
 * into one segment, which drops the terms of every deleted row (a
 * contentless table's delete only tombstones them; FTS5's secure-delete
 * option does not reach contentless tables). Run it in one transaction so a
 * purge noted meanwhile is not lost. Answers whether it ran.
 */
export async function purgeSearchIndexes(q: Queryable): Promise<boolean> {
  const pending = await q.all("DELETE FROM purge_pending RETURNING id");
  if (pending.length === 0) return false;
  for (const table of FTS_TABLES) await q.execute(`INSERT INTO ${table} (${table}) VALUES ('optimize')`);
  return true;
}
