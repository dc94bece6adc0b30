import type { Queryable } from "../db.js";

/** Access levels, weakest first. */
export const ACCESS_LEVELS = ["viewer", "editor", "owner"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Grants (or changes) a user's level in a project. */
export async function setMembership(q: Queryable, projectId: string, userId: string, level: AccessLevel): Promise<void> {
  await q.execute(
    `INSERT INTO memberships (project_id, user_id, level) VALUES (?, ?, ?)
     ON CONFLICT (project_id, user_id) DO UPDATE SET level = excluded.level`,
    [projectId, userId, level],
  );
}

/** Removes a user from a project. */
export async function removeMembership(q: Queryable, projectId: string, userId: string): Promise<void> {
  await q.execute("DELETE FROM memberships WHERE project_id = ? AND user_id = ?", [projectId, userId]);
}

/** The user's live level in the project, or undefined for a non-member. */
export async function accessLevel(q: Queryable, projectId: string, userId: string): Promise<AccessLevel | undefined> {
  const row = await q.get<{ level: AccessLevel }>(
    "SELECT level FROM memberships WHERE project_id = ? AND user_id = ?",
    [projectId, userId],
  );
  return row?.level;
}

/** A project a user is a member of, with their level in it. */
export interface MemberProject {
  projectId: string;
  name: string;
  parentId: string | null;
  level: AccessLevel;
}

/** The projects a user is a member of, by name. */
export async function projectsOfUser(q: Queryable, userId: string): Promise<MemberProject[]> {
  const rows = await q.all<{ project_id: string; name: string; parent_id: string | null; level: AccessLevel }>(
    `SELECT p.project_id, p.name, p.parent_id, m.level FROM memberships m JOIN projects p ON p.project_id = m.project_id
     WHERE m.user_id = ? ORDER BY p.name, p.project_id`,
    [userId],
  );
  return rows.map((r) => ({ projectId: r.project_id, name: r.name, parentId: r.parent_id, level: r.level }));
}
