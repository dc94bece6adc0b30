import { newId } from "../../ids.js";
import type { Queryable } from "../db.js";

export interface Project {
  projectId: string;
  name: string;
  parentId: string | null;
  rootPath: string | null;
  createdAt: string;
}

interface ProjectRow {
  project_id: string;
  name: string;
  parent_id: string | null;
  root_path: string | null;
  created_at: string;
}

const toProject = (r: ProjectRow): Project => ({
  projectId: r.project_id,
  name: r.name,
  parentId: r.parent_id,
  rootPath: r.root_path,
  createdAt: r.created_at,
});

export interface NewProject {
  name: string;
  parentId?: string | null;
  rootPath?: string | null;
}

/** Creates a project, optionally the child of another, with its ingestion lease. */
export async function createProject(q: Queryable, p: NewProject, now = new Date()): Promise<Project> {
  const project: Project = {
    projectId: newId("prj"),
    name: p.name,
    parentId: p.parentId ?? null,
    rootPath: p.rootPath ?? null,
    createdAt: now.toISOString(),
  };
  await q.execute(
    "INSERT INTO projects (project_id, name, parent_id, root_path, created_at) VALUES (?, ?, ?, ?, ?)",
    [project.projectId, project.name, project.parentId, project.rootPath, project.createdAt],
  );
  // Its ingestion lease comes with it, so reading the lease's status never has to write.
  await q.execute("INSERT INTO leases (lease_id, project_id, last_intent, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)", [
    newId("lse"),
    project.projectId,
    project.createdAt,
    project.createdAt,
  ]);
  return project;
}

export async function getProject(q: Queryable, projectId: string): Promise<Project | undefined> {
  const row = await q.get<ProjectRow>("SELECT * FROM projects WHERE project_id = ?", [projectId]);
  return row && toProject(row);
}

export async function findProjectByRoot(q: Queryable, rootPath: string): Promise<Project | undefined> {
  const row = await q.get<ProjectRow>("SELECT * FROM projects WHERE root_path = ?", [rootPath]);
  return row && toProject(row);
}

/** The project and its ancestors, nearest first. */
export async function projectLineage(q: Queryable, projectId: string): Promise<string[]> {
  const rows = await q.all<{ project_id: string }>(
    `WITH RECURSIVE lineage(project_id, parent_id, depth) AS (
       SELECT project_id, parent_id, 0 FROM projects WHERE project_id = ?
       UNION ALL
       SELECT p.project_id, p.parent_id, l.depth + 1 FROM projects p JOIN lineage l ON p.project_id = l.parent_id
       WHERE l.depth < 64
     ) SELECT project_id FROM lineage ORDER BY depth`,
    [projectId],
  );
  return rows.map((r) => r.project_id);
}

/** Adds one to the project's corpus version and returns the new value. */
export async function bumpCorpusVersion(q: Queryable, projectId: string): Promise<number> {
  const row = await q.get<{ corpus_version: number }>(
    "UPDATE projects SET corpus_version = corpus_version + 1 WHERE project_id = ? RETURNING corpus_version",
    [projectId],
  );
  return Number(row!.corpus_version);
}

/** The project's corpus version (0 before any batch). */
export async function corpusVersion(q: Queryable, projectId: string): Promise<number> {
  const row = await q.get<{ corpus_version: number }>("SELECT corpus_version FROM projects WHERE project_id = ?", [projectId]);
  return Number(row?.corpus_version ?? 0);
}
