/**
 * A re-read code file's references written as a difference: rows that read
 * the same stay, the others are deleted by rowid or inserted. Replacing the
 * file's rows whole (`replaceFileReferences`) deleted and inserted every
 * reference, each with two index entries, for an edit that moved none (a
 * word in a doc comment): most of a one-line code edit's transaction. The
 * rows and the project's name list end the same as a whole replacement.
 */
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { insertFileReferences, syncCodeNames } from "./code-references.js";
import type { NewCodeReference } from "./code-references.js";

const BATCH = 500;

/** A row's identity, as the SQL below builds it: unit separators (a NUL would end the string the driver reads). */
const keyOf = (r: NewCodeReference) => [r.name, r.kind, r.lineStart, r.lineEnd, r.nameLine, r.nameCol, r.symbolId ?? ""].join("\u001f");

/** Makes the file's references equal `references`, writing only the rows that differ. */
export async function updateFileReferences(
  q: Queryable,
  file: { projectId: string; fileId: string; path: string },
  references: readonly NewCodeReference[],
): Promise<void> {
  // Two columns a row (the key built by SQL in keyOf's form): a row object per reference was most of the read.
  const rows = await q.all<{ rowid: number; k: string | null; folded: string }>(
    `SELECT rowid, CASE WHEN path = ? THEN name || char(31) || kind || char(31) || line_start || char(31) || line_end || char(31) || name_line || char(31) || name_col || char(31) || ifnull(symbol_id, '') END AS k, folded
     FROM code_references WHERE file_id = ?`,
    [file.path, file.fileId],
  );
  const before = new Set<string>();
  // Old rows by key, several for a repeated key; a row whose path differs is never kept.
  const old = new Map<string, number[]>();
  for (const r of rows) {
    before.add(r.folded);
    if (r.k === null) continue;
    const list = old.get(r.k);
    if (list) list.push(Number(r.rowid));
    else old.set(r.k, [Number(r.rowid)]);
  }
  const kept = new Set<number>();
  const added: NewCodeReference[] = [];
  for (const r of references) {
    const rowid = old.get(keyOf(r))?.pop();
    if (rowid === undefined) added.push(r);
    else kept.add(rowid);
  }
  const gone = rows.map((r) => Number(r.rowid)).filter((rowid) => !kept.has(rowid));
  for (let i = 0; i < gone.length; i += BATCH) {
    const slice = gone.slice(i, i + BATCH);
    await q.execute(`DELETE FROM code_references WHERE rowid IN (${placeholders(slice.length)})`, slice);
  }
  await insertFileReferences(q, file, added);
  await syncCodeNames(q, file.projectId, before, references);
}
