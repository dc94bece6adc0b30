import { Hono } from "hono";
import type { Service } from "../../core/service.js";
import { AppError } from "../../errors.js";
import { requireKey, requireSession } from "./auth.js";
import { errorResponse } from "./error-response.js";
import { hostGuard } from "./host-guard.js";
import type { HttpEnv } from "./http-env.js";
import type { McpHttpHandler } from "./mcp-http.js";
import { rateLimit } from "./rate-limit.js";
import { actionRoutes } from "./routes/action-routes.js";
import { sessionRoutes } from "./routes/session-routes.js";

export interface HttpAppParts {
  service: Service;
  mcp: McpHttpHandler;
  /** Extra route groups (added by later domains) registered after the built-in ones. */
  routes?: ReadonlyArray<(app: Hono<HttpEnv>) => void>;
}

/**
 * The HTTP face of pks: MCP at `/mcp`, REST under `/v1`. Middleware order:
 * host/origin guard, authentication, rate limit, route; every error becomes
 * the JSON envelope.
 */
export function createHttpApp(parts: HttpAppParts): Hono<HttpEnv> {
  const { service, mcp } = parts;
  const deps = service.deps;
  const app = new Hono<HttpEnv>();
  app.onError((err, c) => errorResponse(c, err));
  app.notFound((c) => errorResponse(c, new AppError("not_found")));
  app.use("*", hostGuard(deps.config));

  const byKey = requireKey(deps);
  const bySession = requireSession(deps);
  const limited = rateLimit(deps);
  app.use("/v1/*", (c, next) => (isSessionPath(c.req.path) ? bySession(c, next) : byKey(c, next)));
  app.use("/v1/*", limited);
  app.use("/mcp", byKey, limited);

  app.on(["GET", "POST", "DELETE"], "/mcp", (c) => mcp.handle(c));
  actionRoutes(app, service);
  sessionRoutes(app, deps);
  for (const add of parts.routes ?? []) add(app);
  refuseOtherMethods(app);
  return app;
}

/** Type-schema and proposal routes take a session token instead of an API key. */
function isSessionPath(path: string): boolean {
  return /^\/v1\/projects\/[^/]+\/(entities\/[^/]+\/schema(\/.*)?|category-proposals(\/.*)?)$/.test(path);
}

/** Any method not served on a known path answers 405 (the path exists, the method does not). */
function refuseOtherMethods(app: Hono<HttpEnv>): void {
  const paths = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => r.path));
  for (const path of paths) app.all(path, () => Promise.reject(new AppError("method_not_allowed")));
}
