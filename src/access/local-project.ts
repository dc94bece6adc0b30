import { basename } from "node:path";
import type { Principal } from "./principal.js";
import type { Db } from "../store/db.js";
import { setMembership } from "../store/access/memberships.js";
import { createProject, findProjectByRoot } from "../store/access/projects.js";
import { createUser, findUser } from "../store/access/users.js";

/** The user that owns every folder served on this machine. */
export const LOCAL_USER = "local";

export interface LocalProject {
  userId: string;
  projectId: string;
  /** True on the first run for this folder. */
  created: boolean;
}

/**
 * Makes sure the local owner and the project of a served folder exist.
 * Runs in one transaction so two processes starting together agree.
 */
export async function ensureLocalProject(db: Db, root: string): Promise<LocalProject> {
  return db.transaction(async (tx) => {
    const user = (await findUser(tx, LOCAL_USER)) ?? (await createUser(tx, LOCAL_USER));
    const existing = await findProjectByRoot(tx, root);
    if (existing) return { userId: user.userId, projectId: existing.projectId, created: false };
    const project = await createProject(tx, { name: basename(root) || root, rootPath: root });
    await setMembership(tx, project.projectId, user.userId, "owner");
    return { userId: user.userId, projectId: project.projectId, created: true };
  });
}

/**
 * The principal of a local caller (stdio, `pks call`): the local owner,
 * bound to the folder's project and, when the owner named one
 * (`--submit-type`), to the artifact schema `object_submit` files under.
 */
export function localPrincipal(local: LocalProject, boundTypeId: string | null = null): Principal {
  return { userId: local.userId, via: "local", keyId: null, tier: "standard", boundProjectId: local.projectId, boundTypeId };
}
