import type { MiddlewareHandler } from "hono";
import { authenticateKey, authenticateSession } from "../../access/authenticate.js";
import type { ServiceDeps } from "../../core/deps.js";
import type { HttpEnv } from "./http-env.js";

/** Key endpoints: `Authorization: Bearer <API key>`, else 401 `invalid API key`. */
export function requireKey(deps: ServiceDeps): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    c.set("principal", await authenticateKey(deps.db, c.req.header("authorization")));
    await next();
  };
}

/** Session endpoints: `Authorization: Bearer <session token>`, else 401 `unauthorized`. */
export function requireSession(deps: ServiceDeps): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    c.set("principal", await authenticateSession(deps.db, c.req.header("authorization"), new Date(deps.clock())));
    await next();
  };
}
