import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";

/** Kinds of artifact; the table's CHECK holds the same list. */
export const ARTIFACT_KINDS = ["report", "memo", "summary"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** What a finished build writes; the row is keyed by the task that built it. */
export interface ArtifactWrite {
  /** Used only when the task has no artifact yet: a re-run keeps the first id. */
  artifactId: string;
  projectId: string;
  taskId: string;
  kind: ArtifactKind;
  title: string;
  purpose: string;
  body: string;
  /** Cited cell ids in body order. */
  citations: string[];
  corpusVersion: number;
  now: string;
}

/** An artifact as stored, with `stale` worked out from its citations. */
export interface ArtifactRow {
  artifactId: string;
  projectId: string;
  taskId: string;
  kind: ArtifactKind;
  title: string;
  purpose: string;
  body: string;
  citations: string[];
  corpusVersion: number;
  stale: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a listing and a relevance match need of an artifact. */
export interface ArtifactBrief {
  artifactId: string;
  kind: ArtifactKind;
  title: string;
  purpose: string;
  corpusVersion: number;
  stale: boolean;
  updatedAt: string;
}

/** A cell an artifact may cite: live, with where it sits in its file. */
export interface CitableCell {
  cellId: string;
  fileId: string;
  path: string;
  factionId: string;
  /** The faction's type: a `heading` cell names its section rather than stating a claim. */
  factionType: string;
  /** The section's heading path, outermost first. */
  headingPath: string[];
  factionOrdinal: number;
  cellOrdinal: number;
  text: string;
}

/**
 * True when any cited cell is retired or gone. Evaluated per row over the
 * JSON list, so staleness is always current: nothing has to mark artifacts
 * when a file is re-read.
 */
const STALE = `EXISTS (SELECT 1 FROM json_each(a.citations) j LEFT JOIN cell_rows c ON c.cell_id = j.value
  WHERE c.cell_id IS NULL OR c.retired_at IS NOT NULL)`;

interface Row {
  artifact_id: string;
  project_id: string;
  task_id: string;
  kind: ArtifactKind;
  title: string;
  purpose: string;
  body: string;
  citations: string;
  corpus_version: number;
  stale: number;
  created_at: string;
  updated_at: string;
}

const toBrief = (r: Omit<Row, "body" | "citations" | "task_id" | "project_id" | "created_at">): ArtifactBrief => ({
  artifactId: r.artifact_id,
  kind: r.kind,
  title: r.title,
  purpose: r.purpose,
  corpusVersion: Number(r.corpus_version),
  stale: Number(r.stale) === 1,
  updatedAt: r.updated_at,
});

/**
 * Writes a task's artifact: the first run inserts it, a run of the same
 * task again (after a kill) rewrites that row in place, keeping its id and
 * `created_at`. Answers the artifact's id.
 */
export async function upsertArtifact(q: Queryable, a: ArtifactWrite): Promise<string> {
  const row = await q.get<{ artifact_id: string }>(
    `INSERT INTO artifacts (artifact_id, project_id, task_id, kind, title, purpose, body, citations, corpus_version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (task_id) DO UPDATE SET kind = excluded.kind, title = excluded.title, purpose = excluded.purpose, body = excluded.body,
       citations = excluded.citations, corpus_version = excluded.corpus_version, updated_at = excluded.updated_at
     RETURNING artifact_id`,
    [a.artifactId, a.projectId, a.taskId, a.kind, a.title, a.purpose, a.body, JSON.stringify(a.citations), a.corpusVersion, a.now, a.now],
  );
  return row!.artifact_id;
}

/** The artifact a task wrote, if any. */
export async function artifactOfTask(q: Queryable, taskId: string): Promise<ArtifactRow | undefined> {
  const row = await q.get<Row>(`SELECT a.*, ${STALE} AS stale FROM artifacts a WHERE a.task_id = ?`, [taskId]);
  return row && toRow(row);
}

/** One artifact of the project, or undefined. */
export async function findArtifact(q: Queryable, projectId: string, artifactId: string): Promise<ArtifactRow | undefined> {
  const row = await q.get<Row>(`SELECT a.*, ${STALE} AS stale FROM artifacts a WHERE a.project_id = ? AND a.artifact_id = ?`, [
    projectId,
    artifactId,
  ]);
  return row && toRow(row);
}

function toRow(r: Row): ArtifactRow {
  return {
    ...toBrief(r),
    projectId: r.project_id,
    taskId: r.task_id,
    body: r.body,
    citations: JSON.parse(r.citations) as string[],
    createdAt: r.created_at,
  };
}

/** A page of the project's artifacts by id, after `afterId`. */
export async function readArtifactPage(q: Queryable, projectId: string, afterId: string | undefined, n: number): Promise<ArtifactBrief[]> {
  const rows = await q.all<Row>(
    `SELECT a.artifact_id, a.kind, a.title, a.purpose, a.corpus_version, a.updated_at, ${STALE} AS stale
     FROM artifacts a WHERE a.project_id = ? AND a.artifact_id > ? ORDER BY a.artifact_id LIMIT ?`,
    [projectId, afterId ?? "", n],
  );
  return rows.map(toBrief);
}

/**
 * The project's most recently updated artifacts (at most `limit`), newest
 * first, for matching against a question. `stale` is not worked out here
 * (it is always false): ask `staleArtifacts` for the few that match.
 */
export async function recentArtifacts(q: Queryable, projectId: string, limit: number): Promise<ArtifactBrief[]> {
  const rows = await q.all<Row>(
    `SELECT a.artifact_id, a.kind, a.title, a.purpose, a.corpus_version, a.updated_at, 0 AS stale
     FROM artifacts a WHERE a.project_id = ? ORDER BY a.updated_at DESC, a.artifact_id LIMIT ?`,
    [projectId, limit],
  );
  return rows.map(toBrief);
}

/** Which of these artifacts are stale (a cited cell retired or gone). */
export async function staleArtifacts(q: Queryable, artifactIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < artifactIds.length; i += 500) {
    const ids = artifactIds.slice(i, i + 500);
    const rows = await q.all<{ artifact_id: string }>(
      `SELECT a.artifact_id FROM artifacts a WHERE a.artifact_id IN (${placeholders(ids.length)}) AND ${STALE}`,
      ids,
    );
    for (const r of rows) out.add(r.artifact_id);
  }
  return out;
}

/** Which of these cell ids name a live cell. */
export async function liveCellIds(q: Queryable, cellIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(cellIds)];
  for (let i = 0; i < unique.length; i += 500) {
    const ids = unique.slice(i, i + 500);
    const rows = await q.all<{ cell_id: string }>(
      `SELECT cell_id FROM cells WHERE retired_at IS NULL AND cell_id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const r of rows) out.add(r.cell_id);
  }
  return out;
}

/** Live cells by id with their file path, section headings and position; retired or unknown ids are left out. */
export async function citableCells(q: Queryable, cellIds: readonly string[]): Promise<CitableCell[]> {
  const out: CitableCell[] = [];
  for (let i = 0; i < cellIds.length; i += 500) {
    const ids = cellIds.slice(i, i + 500);
    const rows = await q.all<{
      cell_id: string;
      file_id: string;
      path: string;
      faction_id: string;
      faction_type: string;
      heading_path: string;
      faction_ordinal: number;
      cell_ordinal: number;
      text: string;
    }>(
      `SELECT c.cell_id, c.file_id, fl.path, c.faction_id, f.faction_type, f.heading_path, f.ordinal AS faction_ordinal, c.ordinal AS cell_ordinal, c.text
       FROM cells c JOIN factions f ON f.faction_id = c.faction_id JOIN files fl ON fl.file_id = c.file_id
       WHERE c.retired_at IS NULL AND c.cell_id IN (${placeholders(ids.length)})`,
      ids,
    );
    for (const r of rows) {
      out.push({
        cellId: r.cell_id,
        fileId: r.file_id,
        path: r.path,
        factionId: r.faction_id,
        factionType: r.faction_type,
        headingPath: parseHeadings(r.heading_path),
        factionOrdinal: Number(r.faction_ordinal),
        cellOrdinal: Number(r.cell_ordinal),
        text: r.text,
      });
    }
  }
  return out;
}

function parseHeadings(raw: string): string[] {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((h): h is string => typeof h === "string") : [];
  } catch {
    return [];
  }
}
