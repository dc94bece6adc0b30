import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { INGEST_BODY_LIMIT, JSON_BODY_LIMIT } from "../../core/endpoint.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import type { Page } from "../../core/paging.js";
import type { Service } from "../../core/service.js";
import { peerAddress } from "./http-env.js";
import type { HttpEnv } from "./http-env.js";
import { readBodyBytes, readJsonObject } from "./read-body.js";
import { RawJsonBody, parseJsonObject } from "../../core/raw-body.js";
import type { ErrorCode } from "../../errors.js";

/**
 * Binds every REST endpoint of the list in one place: the route hands the
 * pipeline the `Authorization` header, the named project and a reader of
 * `{params, query, body, project}`, and writes what comes back. No route
 * checks access or parses input itself.
 */
export function bindEndpoints(app: Hono<HttpEnv>, service: Service, endpoints: readonly AnyEndpoint[]): void {
  for (const endpoint of endpoints) {
    app.on(endpoint.method, endpoint.path, async (c) => {
      const named = namedProject(c);
      const result = await service.run(endpoint, {
        caller: { authorization: c.req.header("authorization"), address: peerAddress(c) },
        projectId: endpoint.project === "path" ? c.req.param("projectId") : endpoint.project === "header" ? named : undefined,
        input: async () => ({ params: c.req.param(), query: c.req.query(), body: await readBody(endpoint, c.req.raw), project: named }),
      });
      return reply(c, endpoint, result);
    });
  }
}

/** The project named by `X-Project-Id` or the `projectId` query parameter, if any. */
function namedProject(c: Context<HttpEnv>): string | undefined {
  return c.req.header("x-project-id") || c.req.query("projectId") || undefined;
}

function readBody(endpoint: AnyEndpoint, req: Request): Promise<unknown> {
  const kind = endpoint.body ?? (endpoint.method === "GET" ? "none" : "json");
  if (kind === "none") return Promise.resolve(undefined);
  const limit = endpoint.bodyLimit ?? { bytes: kind === "bytes" ? INGEST_BODY_LIMIT : JSON_BODY_LIMIT, error: "invalid_request_body" as const };
  if (kind === "bytes") return readBodyBytes(req, limit.bytes, limit.error);
  const above = endpoint.rawJsonAbove;
  return above === undefined ? readJsonObject(req, limit.bytes, limit.error) : readLargeRaw(req, limit, above);
}

/** A JSON object body, or past `above` bytes its bytes unparsed (see `Endpoint.rawJsonAbove`). */
async function readLargeRaw(req: Request, limit: { bytes: number; error: ErrorCode }, above: number): Promise<unknown> {
  const bytes = await readBodyBytes(req, limit.bytes, limit.error);
  return bytes.byteLength > above ? new RawJsonBody(bytes) : parseJsonObject(bytes);
}

function reply(c: Context<HttpEnv>, endpoint: AnyEndpoint, result: unknown): Response {
  const status = (endpoint.status ?? 200) as ContentfulStatusCode;
  if (endpoint.reply !== "page") return c.json(result as object, status);
  const page = result as Page<unknown>;
  c.header("X-Next-Cursor", page.nextCursor);
  if (page.totalCount !== undefined) c.header("X-Total-Count", String(page.totalCount));
  return c.json(page.rows, status);
}
