import type { ServiceDeps } from "../core/deps.js";
import { pageLimit } from "../core/cursor.js";
import type { Page } from "../core/cursor.js";
import { AppError } from "../errors.js";
import { projectLineage } from "../store/access/projects.js";

/** What every graph read knows: the project and the projects whose rows it sees. */
export interface ReadScope {
  deps: ServiceDeps;
  projectId: string;
  /** The project and its ancestors, nearest first: a child sees its parents' rows. */
  projectIds: string[];
}

export async function readScope(deps: ServiceDeps, projectId: string): Promise<ReadScope> {
  return { deps, projectId, projectIds: await projectLineage(deps.db, projectId) };
}

/** Raw query parameters of a read. */
export type Query = Record<string, string | undefined>;

/**
 * Keyset paging by id: stable while rows are inserted (no duplicates, no
 * gaps among rows that stay). The cursor is bound to the read's scope.
 */
export async function keysetPage<T>(
  scope: ReadScope,
  read: string,
  query: Query,
  fetch: (afterId: string | undefined, n: number) => Promise<T[]>,
  idOf: (row: T) => string,
): Promise<Page<T>> {
  const limit = pageLimit(query.limit);
  const key = cursorScope(read, scope.projectId, query);
  const afterId = query.cursor ? scope.deps.cursors.decode<{ after: string }>(key, query.cursor).after : undefined;
  if (query.cursor && typeof afterId !== "string") throw new AppError("invalid_cursor");
  const rows = await fetch(afterId, limit + 1);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { rows: page, nextCursor: more && last ? scope.deps.cursors.encode(key, { after: idOf(last) }) : "" };
}

/** The read, the project and every filter except paging: a cursor is valid only for the same. */
function cursorScope(read: string, projectId: string, query: Query): string {
  const filters = Object.entries(query)
    .filter(([k, v]) => k !== "cursor" && k !== "limit" && v !== undefined && v !== "")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  return [read, projectId, ...filters].join("|");
}

/** A comma-separated id list: trimmed, de-duplicated, at most `max`. */
export function idList(raw: string | undefined, name: string, max = 200): string[] | undefined {
  if (raw === undefined || raw === "") return undefined;
  const ids = [...new Set(raw.split(",").map((s) => s.trim()).filter(Boolean))];
  if (ids.length > max) throw new AppError("invalid_input", { message: `${name} takes at most ${max} ids` });
  return ids;
}
