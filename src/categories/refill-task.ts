/**
 * `type_refill`, detached: every member of a type is read again against the
 * schema as it stands (after an edit, members are otherwise re-read only when
 * new material mentions them). Running it twice leaves the same cells: each
 * member has one filled cell, rewritten in place.
 */
import { AppError } from "../errors.js";
import { findEntity } from "../store/graph/entity-reads.js";
import type { TaskKind } from "../tasks/task-kind.js";
import { refillCategory } from "./review-types.js";

export const TYPE_REFILL = "type_refill";

export const typeRefillKind: TaskKind = {
  kind: TYPE_REFILL,
  async run(task) {
    const { entityId } = task.input as { entityId: string };
    const entity = await findEntity(task.db, [task.projectId], entityId);
    if (!entity) throw new AppError("entity_not_found");
    if (entity.kind !== "category") throw new AppError("entity_not_category");
    await task.progress(0, 1);
    const filled = await refillCategory(task.db, task.projectId, entityId, new Date(task.tools.clock()).toISOString());
    await task.progress(1, 1);
    return { entityId, filled };
  },
};
