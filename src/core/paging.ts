import { z } from "zod";
import { AppError } from "../errors.js";
import type { CursorCodec } from "./cursor.js";

/** Rows per page when `limit` is not given, and the most a page holds. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** A page of rows and the cursor of the next one ("" on the last page). */
export interface Page<T> {
  rows: T[];
  nextCursor: string;
  /** The selection's exact size, on a first page where the read can know it. */
  totalCount?: number;
}

/**
 * `limit` as a query parameter: default 50, clamped to 1..200 (a larger value
 * is clamped, not refused); anything but an integer is refused.
 */
export const limitParam = z
  .union([z.string(), z.number()])
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === "") return DEFAULT_PAGE_SIZE;
    const n = typeof raw === "number" ? raw : /^-?\d{1,30}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(n) || !Number.isInteger(n)) {
      ctx.addIssue({ code: "custom", message: "limit must be an integer", params: { bare: true } });
      return z.NEVER;
    }
    return Math.min(Math.max(n, 1), MAX_PAGE_SIZE);
  });

/** `cursor` as a query parameter: an opaque string, empty meaning none. */
export const cursorParam = z
  .string()
  .max(2048)
  .optional()
  .transform((s) => s || undefined);

/**
 * A comma-separated id list as a query parameter: trimmed, de-duplicated,
 * at most `max` ids; empty means absent.
 */
export function idListParam(name: string, max = 200) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return undefined;
      const ids = [...new Set(raw.split(",").map((s) => s.trim()).filter(Boolean))];
      if (ids.length > max) {
        ctx.addIssue({ code: "custom", message: `${name} takes at most ${max} ids`, params: { bare: true } });
        return z.NEVER;
      }
      return ids;
    });
}

/** The paging part of a read's parsed query; every other field is a filter the cursor is bound to. */
export interface PagedQuery {
  cursor?: string | undefined;
  limit: number;
}

/**
 * Keyset paging by id: stable while rows are inserted (no duplicates, no
 * gaps among rows that stay). The cursor is an HMAC-signed position bound
 * to the read, the project and every other field of `query`, so a cursor
 * from another read or other filters answers 400 `invalid cursor`.
 */
export async function keysetPage<T>(
  cursors: CursorCodec,
  read: { name: string; projectId: string; query: PagedQuery },
  fetch: (afterId: string | undefined, n: number) => Promise<T[]>,
  idOf: (row: T) => string,
): Promise<Page<T>> {
  const { cursor, limit, ...filters } = read.query;
  const key = cursorScope(read.name, read.projectId, filters);
  const afterId = cursor ? cursors.decode<{ after: string }>(key, cursor).after : undefined;
  if (cursor && typeof afterId !== "string") throw new AppError("invalid_cursor");
  const rows = await fetch(afterId, limit + 1);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { rows: page, nextCursor: more && last ? cursors.encode(key, { after: idOf(last) }) : "" };
}

/** The read, the project and every filter except paging: a cursor is valid only for the same. */
function cursorScope(read: string, projectId: string, given: Record<string, unknown>): string {
  const filters = Object.entries(given)
    .filter(([, v]) => v !== undefined && v !== "")
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`);
  return [read, projectId, ...filters].join("|");
}
