import { z } from "zod";
import { toEntity } from "./read-entities.js";
import type { Scope } from "../core/scope.js";
import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { entityRoles, findEntity } from "../store/graph/entity-reads.js";
import { entitySchema } from "./resources.js";

/** One entity read by id: the Entity resource and its roles. */
export const entityDetailSchema = entitySchema.extend({ roles: z.array(z.string()) });
export type EntityDetail = z.infer<typeof entityDetailSchema>;

/**
 * `GET /v1/projects/{projectId}/entities/{entityId}`: one entity of the
 * project or its ancestors, with its live cell count and its roles. Unlike
 * the list, it answers an entity with no live cell too (a type, or one whose
 * cells were all retired), so an id an answer once gave can still be read.
 * 404 `entity not found` for an unknown or unreachable id.
 */
export async function readEntity(q: Queryable, scope: Scope, entityId: string): Promise<EntityDetail> {
  const e = await findEntity(q, scope.projectIds, entityId);
  if (!e) throw new AppError("entity_not_found");
  return { ...toEntity(e), roles: await entityRoles(q, e.entityId) };
}
