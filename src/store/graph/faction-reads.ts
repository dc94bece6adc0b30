import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { ENTITY_ROWID } from "./cell-entity-keys.js";
import { spanOf } from "./source-span.js";

export interface FactionFilter {
  projectIds: readonly string[];
  factionIds?: readonly string[];
  factionType?: string;
  /** Factions some live cell of this file reaches. */
  fileId?: string;
  /** Factions whose live cells back this entity. */
  entityId?: string;
  /** Factions whose live cells back an entity of this type. */
  categoryEntityId?: string;
}

export interface FactionRow {
  factionId: string;
  projectId: string;
  factionType: string;
  inferredType: string;
  location: Record<string, number>;
  fileIds: string[];
}

interface Row {
  faction_id: string;
  project_id: string;
  faction_type: string;
  inferred_type: string;
  line_start: number | null;
  line_end: number | null;
  pdf_page_start: number | null;
  pdf_page_end: number | null;
  audio_start_ms: number | null;
  video_start_ms: number | null;
}


function where(f: FactionFilter): { sql: string; args: InValue[] } {
  const parts = ["f.retired_at IS NULL", `f.project_id IN (${placeholders(f.projectIds.length)})`];
  const args: InValue[] = [...f.projectIds];
  const add = (sql: string, ...values: InValue[]) => {
    parts.push(sql);
    args.push(...values);
  };
  if (f.factionIds) add(`f.faction_id IN (${placeholders(f.factionIds.length)})`, ...f.factionIds);
  if (f.factionType) add("f.faction_type = ?", f.factionType);
  if (f.fileId) add("EXISTS (SELECT 1 FROM cells c WHERE c.faction_id = f.faction_id AND c.file_id = ? AND c.retired_at IS NULL)", f.fileId);
  if (f.entityId) {
    add(
      `EXISTS (SELECT 1 FROM cells c JOIN cell_entities ce ON ce.cell_rowid = c.rowid
        WHERE c.faction_id = f.faction_id AND c.retired_at IS NULL AND ce.entity_rowid = (${ENTITY_ROWID}))`,
      f.entityId,
    );
  }
  if (f.categoryEntityId) {
    add("EXISTS (SELECT 1 FROM category_members m WHERE m.faction_id = f.faction_id AND m.category_entity_id = ?)", f.categoryEntityId);
  }
  return { sql: parts.join(" AND "), args };
}

/** Live factions by id after `afterId` (no `limit`: the whole selection). */
export async function readFactions(q: Queryable, f: FactionFilter, afterId?: string, limit?: number): Promise<FactionRow[]> {
  const w = where(f);
  const rows = await q.all<Row>(
    `SELECT f.faction_id, f.project_id, f.faction_type, f.inferred_type, f.line_start, f.line_end, f.pdf_page_start,
       f.pdf_page_end, f.audio_start_ms, f.video_start_ms
     FROM factions f WHERE ${w.sql} ${afterId ? "AND f.faction_id > ?" : ""} ORDER BY f.faction_id ${limit ? "LIMIT ?" : ""}`,
    [...w.args, ...(afterId ? [afterId] : []), ...(limit ? [limit] : [])],
  );
  const files = await reachingFiles(q, rows.map((r) => r.faction_id));
  return rows.map((r) => ({
    factionId: r.faction_id,
    projectId: r.project_id,
    factionType: r.faction_type,
    inferredType: r.inferred_type,
    location: locationOf(r),
    fileIds: files.get(r.faction_id) ?? [],
  }));
}

export async function countFactions(q: Queryable, f: FactionFilter): Promise<number> {
  const w = where(f);
  const row = await q.get<{ n: number }>(`SELECT count(*) AS n FROM factions f WHERE ${w.sql}`, w.args);
  return Number(row?.n ?? 0);
}

function locationOf(r: Row): Record<string, number> {
  return spanOf(r);
}

/** Files whose live cells reference each faction. */
async function reachingFiles(q: Queryable, factionIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < factionIds.length; i += 500) {
    const ids = factionIds.slice(i, i + 500);
    const rows = await q.all<{ faction_id: string; file_id: string }>(
      `SELECT DISTINCT faction_id, file_id FROM cells WHERE retired_at IS NULL AND faction_id IN (${placeholders(ids.length)}) ORDER BY file_id`,
      ids,
    );
    for (const r of rows) out.set(r.faction_id, [...(out.get(r.faction_id) ?? []), r.file_id]);
  }
  return out;
}
