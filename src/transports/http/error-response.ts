import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { toAppError } from "../../errors.js";
import { log } from "../../logger.js";

/** The JSON error envelope for anything thrown; never a stack or driver text. */
export function errorResponse(c: Context, err: unknown): Response {
  const e = toAppError(err);
  if (e.status >= 500) log.error("request failed", { method: c.req.method, path: c.req.path, error: err });
  for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
  return c.json(e.toEnvelope(), e.status as ContentfulStatusCode);
}
