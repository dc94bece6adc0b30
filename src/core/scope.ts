import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { ACCESS_LEVELS, accessLevel } from "../store/access/memberships.js";
import type { AccessLevel } from "../store/access/memberships.js";
import { projectLineage } from "../store/access/projects.js";
import type { Principal } from "../access/principal.js";

/**
 * The project a call runs against, resolved once per call by the pipeline:
 * every handler and domain reads it from here and never resolves it again.
 */
export interface Scope {
  readonly principal: Principal;
  readonly projectId: string;
  /** The project and its ancestors, nearest first: a child sees its parents' rows. */
  readonly projectIds: string[];
  /** The caller's live level in the project, read for this call. */
  readonly level: AccessLevel;
}

/**
 * Resolves the target project of a call and the caller's live level in it.
 * A project the caller cannot see answers exactly like one that does not
 * exist: 404 `project not found`.
 */
export async function resolveScope(q: Queryable, principal: Principal, named: string | undefined): Promise<Scope> {
  const projectId = named || principal.boundProjectId;
  if (!projectId) throw new AppError("project_required");
  if (principal.boundProjectId && projectId !== principal.boundProjectId) throw new AppError("project_not_found");
  const level = await accessLevel(q, projectId, principal.userId);
  if (!level) throw new AppError("project_not_found");
  return { principal, projectId, projectIds: await projectLineage(q, projectId), level };
}

/** True when `level` reaches `needed`. */
export function reaches(level: AccessLevel, needed: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(needed);
}
