import type { Queryable } from "../db.js";

/** What a project holds now: live files, derived rows, and files whose reading failed. */
export interface ProjectStats {
  files: number;
  failed: number;
  factions: number;
  cells: number;
  /** Distinct entities backed by at least one live cell of the project. */
  entities: number;
}

/** Counts of a project's live files, factions, cells and the entities its cells back. */
export async function projectStats(q: Queryable, projectId: string): Promise<ProjectStats> {
  const row = await q.get<Record<keyof ProjectStats, number>>(
    `SELECT
       (SELECT count(*) FROM files WHERE project_id = ?1 AND status <> 'retired') AS files,
       (SELECT count(*) FROM files WHERE project_id = ?1 AND status = 'failed') AS failed,
       (SELECT count(*) FROM files fi JOIN factions f ON f.file_id = fi.file_id
         WHERE fi.project_id = ?1 AND f.retired_at IS NULL) AS factions,
       (SELECT count(*) FROM cell_rows WHERE project_rowid = (SELECT rowid FROM projects WHERE project_id = ?1) AND retired_at IS NULL) AS cells,
       (SELECT count(DISTINCT ce.entity_rowid) FROM cell_entities ce JOIN cell_rows c ON c.rowid = ce.cell_rowid
         WHERE c.project_rowid = (SELECT rowid FROM projects WHERE project_id = ?1) AND c.retired_at IS NULL) AS entities`,
    [projectId],
  );
  return {
    files: Number(row?.files ?? 0),
    failed: Number(row?.failed ?? 0),
    factions: Number(row?.factions ?? 0),
    cells: Number(row?.cells ?? 0),
    entities: Number(row?.entities ?? 0),
  };
}
