import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";

/** A record as the records read shows it. */
export interface RecordRow {
  recordId: string;
  schemaId: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/** A record to store; `spam` records carry no cell or entity. */
export interface NewRecord {
  recordId: string;
  projectId: string;
  schemaId: string;
  /** The data as one JSON text, as stored. */
  json: string;
  spam: boolean;
  cellId: string | null;
  entityId: string | null;
  /** The bytes the record stored (its JSON and what was derived from it), counted against the project's quota. */
  size: number;
}

export async function insertRecord(q: Queryable, r: NewRecord, now: string): Promise<void> {
  await q.execute(
    `INSERT INTO records (record_id, project_id, schema_id, data, spam, cell_id, entity_id, created_at, size)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [r.recordId, r.projectId, r.schemaId, r.json, r.spam ? 1 : 0, r.cellId, r.entityId, now, r.size],
  );
}

/** Deletes spam records created before `before`; how many went. */
export async function deleteSpamBefore(q: Queryable, before: string): Promise<number> {
  const r = await q.execute("DELETE FROM records WHERE spam = 1 AND created_at < ?", [before]);
  return r.rowsAffected;
}

/** Filters of the records read: one project, optionally one schema; spam is never selected. */
export interface RecordFilter {
  projectId: string;
  schemaId?: string | undefined;
}

function where(f: RecordFilter): { sql: string; args: InValue[] } {
  const parts = ["project_id = ?", "spam = 0"];
  const args: InValue[] = [f.projectId];
  if (f.schemaId) {
    parts.push("schema_id = ?");
    args.push(f.schemaId);
  }
  return { sql: parts.join(" AND "), args };
}

/** One page of records by id, after `afterId`. */
export async function readRecordPage(q: Queryable, f: RecordFilter, afterId: string | undefined, limit: number): Promise<RecordRow[]> {
  const w = where(f);
  const rows = await q.all<{ record_id: string; schema_id: string; data: string; created_at: string }>(
    `SELECT record_id, schema_id, data, created_at FROM records
     WHERE ${w.sql} ${afterId ? "AND record_id > ?" : ""} ORDER BY record_id LIMIT ?`,
    [...w.args, ...(afterId ? [afterId] : []), limit],
  );
  return rows.map((r) => ({
    recordId: r.record_id,
    schemaId: r.schema_id,
    data: JSON.parse(r.data) as Record<string, unknown>,
    createdAt: r.created_at,
  }));
}

/** How many records the filter selects (spam never counts). */
export async function countRecords(q: Queryable, f: RecordFilter): Promise<number> {
  const w = where(f);
  const row = await q.get<{ n: number }>(`SELECT count(*) AS n FROM records WHERE ${w.sql}`, w.args);
  return Number(row?.n ?? 0);
}

/** The ordinal the next faction of a records file takes: one past the last. */
export async function nextFactionOrdinal(q: Queryable, fileId: string): Promise<number> {
  const row = await q.get<{ n: number | null }>("SELECT max(ordinal) AS n FROM factions WHERE file_id = ?", [fileId]);
  return row?.n === null || row?.n === undefined ? 0 : Number(row.n) + 1;
}

/**
 * Adds one record cell to the full-text index, with the same text and
 * context (file path and headings) a reading's cells get, so `memory_query`
 * ranks it like any other cell. A records file is never indexed as a whole
 * document: it is not one.
 */
export async function indexRecordCell(q: Queryable, cellId: string): Promise<void> {
  await q.execute(
    `INSERT INTO cells_fts (rowid, text, context)
     SELECT c.rowid, c.text, fi.path || ' ' || f.heading_path
     FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fi ON fi.file_id = c.file_id
     WHERE c.cell_id = ?`,
    [cellId],
  );
}
