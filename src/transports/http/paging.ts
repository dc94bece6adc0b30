import type { Context } from "hono";
import type { Page } from "../../core/cursor.js";

/**
 * Writes the paging headers of a read: `X-Next-Cursor` always (empty on the
 * last page) and `X-Total-Count` when the read knows an exact count.
 */
export function pageResponse<T>(c: Context, page: Page<T>): Response {
  c.header("X-Next-Cursor", page.nextCursor);
  if (page.totalCount !== undefined) c.header("X-Total-Count", String(page.totalCount));
  return c.json(page.rows);
}
