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
