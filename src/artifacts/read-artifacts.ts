import type { Page, PagedQuery } from "../core/paging.js";
import { keysetPage } from "../core/paging.js";
import type { Scope } from "../core/scope.js";
import type { Tools } from "../core/tools.js";
import { AppError } from "../errors.js";
import { findArtifact, liveCellIds, readArtifactPage } from "../store/artifacts/artifacts.js";
import type { Queryable } from "../store/db.js";
import type { ArtifactListRow, ArtifactResource } from "./resources.js";

/**
 * `GET /v1/projects/{projectId}/artifacts`: the project's own artifacts (an
 * artifact belongs to the project it was built in; a child project does not
 * list its ancestors'), keyset-paged by id.
 */
export async function readArtifacts(q: Queryable, scope: Scope, query: PagedQuery, tools: Pick<Tools, "cursors">): Promise<Page<ArtifactListRow>> {
  const page = await keysetPage(
    tools.cursors,
    { name: "artifacts", projectId: scope.projectId, query },
    (after, n) => readArtifactPage(q, scope.projectId, after, n),
    (a) => a.artifactId,
  );
  return {
    rows: page.rows.map((a) => ({ artifactId: a.artifactId, title: a.title, kind: a.kind, corpusVersion: a.corpusVersion, stale: a.stale, updatedAt: a.updatedAt })),
    nextCursor: page.nextCursor,
  };
}

/** `GET /v1/projects/{projectId}/artifacts/{artifactId}`: one artifact, each citation with whether its cell is live; 404 `artifact not found`. */
export async function readArtifact(q: Queryable, scope: Scope, artifactId: string): Promise<ArtifactResource> {
  const a = await findArtifact(q, scope.projectId, artifactId);
  if (!a) throw new AppError("artifact_not_found");
  const live = await liveCellIds(q, a.citations);
  return {
    artifactId: a.artifactId,
    title: a.title,
    kind: a.kind,
    purpose: a.purpose,
    body: a.body,
    citations: a.citations.map((cellId) => ({ cellId, live: live.has(cellId) })),
    corpusVersion: a.corpusVersion,
    stale: a.stale,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
