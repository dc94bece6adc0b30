import { Hono } from "hono";
import type { AnyEndpoint } from "../../core/endpoint.js";
import type { Service } from "../../core/service.js";
import type { Config } from "../../config.js";
import { AppError } from "../../errors.js";
import { errorResponse } from "./error-response.js";
import { hostGuard } from "./host-guard.js";
import type { HttpEnv } from "./http-env.js";
import type { McpHttpHandler } from "./mcp-http.js";
import { bindEndpoints } from "./rest-routes.js";
import { serveOpenApi } from "./openapi-route.js";

export interface HttpAppParts {
  config: Config;
  service: Service;
  mcp: McpHttpHandler;
  /** Every REST endpoint, bound in one loop. */
  endpoints: readonly AnyEndpoint[];
  /** The people's console (its own app), answering every path the API does not: `/`, `/sign-in`, `/p/…`. */
  console?: { fetch(request: Request, env?: unknown): Response | Promise<Response>; servesPath(path: string): boolean };
}

/**
 * The HTTP face of pks: MCP at `/mcp`, REST under `/v1`. The host/origin
 * guard runs first on every route; each REST endpoint then runs through the
 * service's pipeline (authenticate, rate limit, scope, tier, level,
 * validate, run); every error becomes the JSON envelope.
 */
export function createHttpApp(parts: HttpAppParts): Hono<HttpEnv> {
  const { service, mcp } = parts;
  const app = new Hono<HttpEnv>();
  app.onError((err, c) => errorResponse(c, err));
  app.notFound((c) => errorResponse(c, new AppError("not_found")));
  app.use("*", hostGuard(parts.config, { opaqueOriginPaths: (path) => parts.console?.servesPath(path) ?? false }));
  // Authenticated on every request, counted against the rate limit only when it does work (see `McpHttpHandler.handle`).
  app.on(["GET", "POST", "DELETE"], "/mcp", (c) => mcp.handle(c));
  serveOpenApi(app, parts);
  bindEndpoints(app, service, parts.endpoints);
  refuseOtherMethods(app);
  // Mounted last and as one catch-all, after the host guard: the API's routes answer first, and its 404 stays JSON (the console answers it so).
  const people = parts.console;
  if (people) app.mount("/", (request, env: unknown) => people.fetch(request, env));
  return app;
}

/** Any method not served on a known path answers 405 (the path exists, the method does not). */
function refuseOtherMethods(app: Hono<HttpEnv>): void {
  const paths = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => r.path));
  for (const path of paths) app.all(path, () => Promise.reject(new AppError("method_not_allowed")));
}
