import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { ACCESS_LEVELS, accessLevel } from "../store/access/memberships.js";
import type { AccessLevel } from "../store/access/memberships.js";
import type { Principal } from "./principal.js";

export interface ProjectAccess {
  projectId: string;
  level: AccessLevel;
}

/**
 * Resolves the target project of a call and the caller's live level in it.
 * A project the caller cannot see answers exactly like one that does not
 * exist: 404 `project not found`.
 */
export async function resolveProject(q: Queryable, principal: Principal, named: string | undefined): Promise<ProjectAccess> {
  const projectId = named || principal.boundProjectId;
  if (!projectId) throw new AppError("project_required");
  if (principal.boundProjectId && projectId !== principal.boundProjectId) throw new AppError("project_not_found");
  const level = await accessLevel(q, projectId, principal.userId);
  if (!level) throw new AppError("project_not_found");
  return { projectId, level };
}

/** True when `level` reaches `needed`. */
export function reaches(level: AccessLevel, needed: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(needed);
}

/** Write endpoints: 403 `editor access required` below editor. */
export function requireEditor(access: ProjectAccess): void {
  if (!reaches(access.level, "editor")) throw new AppError("editor_access_required");
}
