/**
 * A document file's entity links and symbol mentions, read and changed as
 * sets, so a re-reading writes only the links it changes. Unlinking every
 * cell of the file and linking them all again cost a one-line edit of a
 * 2,000-line document thousands of deleted and inserted rows.
 */
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { pairRowids } from "./cell-entity-keys.js";
import { NAME_KEY } from "./named-entities.js";

export interface CellLink {
  readonly cellId: string;
  readonly entityId: string;
}

export interface CellMention {
  readonly cellId: string;
  readonly name: string;
}

/** Pairs per statement: two values each, well under SQLite's bound-variable limit. */
const BATCH = 400;

/**
 * The links of the file's cells (live or retired) to document-named and
 * symbol entities: the links a document reading owns. Driven from the
 * file's cells (CROSS JOIN fixes that order), as `unlinkFileMentions` is.
 */
export async function fileMentionLinks(q: Queryable, projectId: string, fileId: string): Promise<CellLink[]> {
  const rows = await q.all<{ cell_id: string; entity_id: string }>(
    `SELECT c.cell_id, e.entity_id FROM cells c
     CROSS JOIN cell_entities ce ON ce.cell_rowid = c.rowid
     CROSS JOIN entities e ON e.rowid = ce.entity_rowid
     WHERE c.file_id = ? AND e.project_id = ? AND (e.kind = 'symbol' OR e.source_key LIKE '${NAME_KEY}%')`,
    [fileId, projectId],
  );
  return rows.map((r) => ({ cellId: r.cell_id, entityId: r.entity_id }));
}

/** Removes these links. */
export async function unlinkPairs(q: Queryable, links: readonly CellLink[]): Promise<void> {
  for (let i = 0; i < links.length; i += BATCH) {
    const slice = links.slice(i, i + BATCH);
    await q.execute(
      `DELETE FROM cell_entities WHERE (cell_rowid, entity_rowid) IN (${pairRowids(slice.length)})`,
      slice.flatMap((l) => [l.cellId, l.entityId]),
    );
  }
}

/** The symbol mentions recorded for the file's cells. */
export async function fileSymbolMentions(q: Queryable, fileId: string): Promise<CellMention[]> {
  const rows = await q.all<{ cell_id: string; name: string }>(
    "SELECT c.cell_id, m.name FROM cells c CROSS JOIN symbol_mentions m ON m.cell_rowid = c.rowid WHERE c.file_id = ?",
    [fileId],
  );
  return rows.map((r) => ({ cellId: r.cell_id, name: r.name }));
}

/** Removes these symbol mentions (`symbol_mentions` keys a cell by its rowid, `0042-symbol-mention-rowids.sql`). */
export async function dropSymbolMentions(q: Queryable, mentions: readonly CellMention[]): Promise<void> {
  for (let i = 0; i < mentions.length; i += BATCH) {
    const slice = mentions.slice(i, i + BATCH);
    await q.execute(
      `DELETE FROM symbol_mentions WHERE (cell_rowid, name) IN (
         SELECT c.rowid, v.column2 FROM (VALUES ${slice.map(() => "(?, ?)").join(", ")}) v CROSS JOIN cell_rows c ON c.cell_id = v.column1)`,
      slice.flatMap((m) => [m.cellId, m.name]),
    );
  }
}
