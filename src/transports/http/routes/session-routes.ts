import type { Hono } from "hono";
import { mintSession } from "../../../access/session-token.js";
import type { ServiceDeps } from "../../../core/deps.js";
import type { HttpEnv } from "../http-env.js";

/** `POST /v1/sessions`: trades an API key for a 12-hour session token. */
export function sessionRoutes(app: Hono<HttpEnv>, deps: ServiceDeps): void {
  app.post("/v1/sessions", async (c) => {
    const session = await mintSession(deps.db, c.get("principal"), new Date(deps.clock()));
    return c.json(session, 201);
  });
}
