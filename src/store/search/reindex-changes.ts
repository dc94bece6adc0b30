/**
 * Full-text rows of a re-read file, rewritten only where the reading
 * changed them. `reindexFile` rewrites every cell's row: for a one-line edit
 * of a 2,000-line document that was 4,000 rows deleted and inserted (the
 * largest part of the edit's transaction). A kept cell keeps its text, so its
 * row stands unless its context (path and heading path) moved.
 */
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { DOCUMENT_BODY_CHARS, reindexFile } from "./search-index.js";
import { deleteSearchRows } from "./search-totals.js";

/** Cells whose rows a reading changed; `whole` when none of the file's cells was kept. */
export interface IndexedCellChanges {
  readonly whole: boolean;
  readonly added: readonly string[];
  readonly retired: readonly string[];
  /** Kept cells whose context changed. */
  readonly recontexted: readonly string[];
}

/** The file's document row (path and first heading as title, its cells as body), as `reindexFile` writes it. */
export interface FileDocument {
  readonly title: string;
  readonly body: string;
}

const BATCH = 500;

/**
 * The document row of a file whose live cells are `cells` in ordinal
 * order: the first heading cell's text as title, the texts joined by spaces
 * and cut at DOCUMENT_BODY_CHARS characters (code points, as SQLite's
 * `substr` counts) as body — what `reindexFile` reads back with SQL.
 */
export function fileDocument(cells: ReadonlyArray<{ readonly text: string; readonly heading: boolean }>): FileDocument {
  const title = cells.find((c) => c.heading)?.text ?? "";
  const body = cells.map((c) => c.text).join(" ");
  return { title, body: body.length > DOCUMENT_BODY_CHARS ? body.slice(0, codePointsEnd(body, DOCUMENT_BODY_CHARS)) : body };
}

/**
 * Where the first `count` code points of `text` end, in UTF-16 units: a
 * surrogate pair counts once, as SQLite's `substr` counts characters. A walk
 * over the units: splitting the text into an array of code points first took
 * about 15 ms a re-read for a long document.
 */
export function codePointsEnd(text: string, count: number): number {
  let at = 0;
  for (let n = 0; n < count && at < text.length; n++) {
    const unit = text.charCodeAt(at);
    const pair = unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00;
    at += pair ? 2 : 1;
  }
  return at;
}

/**
 * Applies a reading's cell changes to `cells_fts` and rewrites the file's
 * `files_fts` row from `document` (built by the caller from the reading, so
 * the body is not read back from the cells). A reading that kept no cell
 * rewrites the whole file, as `reindexFile` does.
 */
export async function reindexChanges(q: Queryable, fileId: string, changes: IndexedCellChanges, document: FileDocument | undefined): Promise<void> {
  if (changes.whole || document === undefined) {
    await reindexFile(q, fileId);
    return;
  }
  const out = [...changes.retired, ...changes.recontexted];
  for (let i = 0; i < out.length; i += BATCH) {
    const slice = out.slice(i, i + BATCH);
    await deleteSearchRows(q, "cells_fts", `SELECT rowid FROM cells WHERE cell_id IN (${placeholders(slice.length)})`, slice);
  }
  const into = [...changes.added, ...changes.recontexted];
  for (let i = 0; i < into.length; i += BATCH) {
    const slice = into.slice(i, i + BATCH);
    await q.execute(
      `INSERT INTO cells_fts (rowid, text, context)
       SELECT c.rowid, c.text, fi.path || ' ' || f.heading_path
       FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fi ON fi.file_id = c.file_id
       WHERE c.cell_id IN (${placeholders(slice.length)}) AND c.retired_at IS NULL`,
      slice,
    );
  }
  const file = await q.get<{ rowid: number; path: string }>("SELECT rowid, path FROM files WHERE file_id = ?", [fileId]);
  if (!file) return;
  await deleteSearchRows(q, "files_fts", "SELECT ?", [file.rowid]);
  if (document.body) await q.execute("INSERT INTO files_fts (rowid, title, body) VALUES (?, ?, ?)", [file.rowid, `${file.path} ${document.title}`, document.body]);
}
