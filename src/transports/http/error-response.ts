import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { toAppError } from "../../errors.js";
import { log } from "../../logger.js";

/** The JSON error envelope for anything thrown; never a stack or driver text. */
export function errorResponse(c: Context, err: unknown): Response {
  const e = toAppError(err);
  if (e.status >= 500) log.error("request failed", { method: c.req.method, path: c.req.path, error: err });
  for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
  if (e.status === 401) c.header("WWW-Authenticate", bearerChallenge(c.req.header("authorization")));
  return c.json(e.toEnvelope(), e.status as ContentfulStatusCode);
}

/**
 * The challenge every 401 carries (RFC 6750): `Bearer realm="pks"`, plus
 * `error="invalid_token"` when the request sent credentials that were
 * refused. It names no `resource_metadata` and no scope: pks is no OAuth
 * resource server (its well-known metadata paths answer 404), and the token
 * to send is an API key minted with `pks key create`, which an MCP client
 * such as the Inspector takes in its bearer-token field.
 */
export function bearerChallenge(authorization: string | undefined): string {
  return authorization?.trim() ? 'Bearer realm="pks", error="invalid_token"' : 'Bearer realm="pks"';
}
