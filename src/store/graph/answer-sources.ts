import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { spanOf } from "./source-span.js";
import type { SourceSpan, SpanColumns } from "./source-span.js";


/** Where a cell was read from: its file, the file's project path, and its faction's span. */
export interface CellSource {
  fileId: string;
  path: string;
  span: SourceSpan;
}

/** Ids per statement: well under SQLite's bound-parameter limit. */
const BATCH = 500;

/** The source of each live cell among `cellIds` (retired or unknown ids are left out). */
export async function cellSources(q: Queryable, cellIds: readonly string[]): Promise<Map<string, CellSource>> {
  const out = new Map<string, CellSource>();
  const unique = [...new Set(cellIds)];
  for (let i = 0; i < unique.length; i += BATCH) {
    const ids = unique.slice(i, i + BATCH);
    const rows = await q.all<{ cell_id: string; file_id: string; path: string } & SpanColumns>(
      `SELECT c.cell_id, c.file_id, fl.path, f.line_start, f.line_end, f.pdf_page_start, f.pdf_page_end, f.audio_start_ms, f.video_start_ms
       FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fl ON fl.file_id = c.file_id
       WHERE c.retired_at IS NULL AND c.cell_id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const r of rows) out.set(r.cell_id, { fileId: r.file_id, path: r.path, span: spanOf(r) });
  }
  return out;
}

/** The project path of the file declaring each symbol entity among `entityIds` (live declarations only). */
export async function symbolEntityPaths(q: Queryable, entityIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(entityIds)];
  for (let i = 0; i < unique.length; i += BATCH) {
    const ids = unique.slice(i, i + BATCH);
    const rows = await q.all<{ entity_id: string; path: string }>(
      `SELECT e.entity_id, fl.path FROM entities e
       JOIN symbols s ON s.project_id = e.project_id AND s.symbol_id = e.source_key AND s.retired_at IS NULL
       JOIN files fl ON fl.file_id = s.file_id
       WHERE e.kind = 'symbol' AND e.entity_id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const r of rows) out.set(r.entity_id, r.path);
  }
  return out;
}

/** Which of these entities back a live cell of one of these files. */
export async function entitiesInFiles(q: Queryable, entityIds: readonly string[], fileIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(entityIds)];
  const files = [...new Set(fileIds)];
  if (files.length === 0) return out;
  for (let i = 0; i < unique.length; i += BATCH) {
    const ids = unique.slice(i, i + BATCH);
    const rows = await q.all<{ entity_id: string }>(
      `SELECT DISTINCT e.entity_id FROM entities e JOIN cell_entities ce ON ce.entity_rowid = e.rowid JOIN cells c ON c.rowid = ce.cell_rowid
       WHERE e.entity_id IN (${placeholders(ids.length)}) AND c.retired_at IS NULL AND c.file_id IN (${placeholders(files.length)})`,
      [...ids, ...files],
    );
    for (const r of rows) out.add(r.entity_id);
  }
  return out;
}

/** Which of these artifacts cite a cell read from one of these files. */
export async function artifactsCitingFiles(q: Queryable, artifactIds: readonly string[], fileIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(artifactIds)];
  const files = [...new Set(fileIds)];
  if (unique.length === 0 || files.length === 0) return out;
  const rows = await q.all<{ artifact_id: string }>(
    `SELECT a.artifact_id FROM artifacts a WHERE a.artifact_id IN (${placeholders(unique.length)})
       AND EXISTS (SELECT 1 FROM json_each(a.citations) j JOIN cells c ON c.cell_id = j.value
                   WHERE c.file_id IN (${placeholders(files.length)}))`,
    [...unique, ...files],
  );
  for (const r of rows) out.add(r.artifact_id);
  return out;
}
