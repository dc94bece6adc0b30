import type { Hono } from "hono";
import { errorResponseRefs, openApiDocument } from "../../core/openapi.js";
import type { OpenApiObject, WireRoute } from "../../core/openapi.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import type { Service } from "../../core/service.js";
import { API_VERSION } from "../../version.js";
import type { HttpEnv } from "./http-env.js";

/** Where the OpenAPI document is served. */
export const OPENAPI_PATH = "/v1/openapi.json";

/**
 * Serves the OpenAPI 3.1 document at `GET /v1/openapi.json`, generated once
 * from the endpoint list the app binds and the service's action catalog.
 * It needs no key: it describes the routes, the schemas and the error
 * envelope, which any caller learns from the answers anyway, and reveals no
 * project, key or data. The host/origin guard still applies.
 */
export function serveOpenApi(app: Hono<HttpEnv>, parts: { service: Service; endpoints: readonly AnyEndpoint[] }): void {
  let document: OpenApiObject | undefined;
  app.get(OPENAPI_PATH, (c) => {
    document ??= openApiDocument({ endpoints: parts.endpoints, actions: parts.service.catalog.list(), version: API_VERSION, routes: wireRoutes() });
    return c.json(document);
  });
}

/** The routes the HTTP app serves outside the endpoint list: the document itself and MCP. */
export function wireRoutes(): WireRoute[] {
  return [
    { method: "GET", path: OPENAPI_PATH, operation: documentOperation() },
    { method: "POST", path: "/mcp", operation: mcpPost() },
    { method: "GET", path: "/mcp", operation: mcpGet() },
    { method: "DELETE", path: "/mcp", operation: mcpDelete() },
  ];
}

const SESSION = { name: "Mcp-Session-Id", in: "header", description: "The session, from the initialize answer. An unknown or expired one answers 404: initialize again." };
const VERSION = { name: "MCP-Protocol-Version", in: "header", required: false, description: "The negotiated protocol version.", schema: { type: "string" } };
const PROJECT = { name: "X-Project-Id", in: "header", required: false, description: "The session's project (initialize only); not needed with a bound key.", schema: { type: "string" } };

/** An MCP route's operation: tagged `mcp`, a key required. */
const mcp = (operation: OpenApiObject): OpenApiObject => ({ tags: ["mcp"], security: [{ apiKey: [] }], ...operation });

function documentOperation(): OpenApiObject {
  return {
    operationId: "openapi.get",
    summary: "This document",
    description: "The OpenAPI 3.1 description of every served route. No credential needed.",
    tags: ["service"],
    security: [],
    responses: {
      "200": { description: "The OpenAPI document.", content: { "application/json": { schema: { type: "object" } } } },
      ...errorResponseRefs([403]),
    },
  };
}

function mcpPost(): OpenApiObject {
  return mcp({
    operationId: "mcp.post",
    summary: "MCP streamable HTTP: one JSON-RPC message",
    description:
      "An initialize request (no session id) opens a session bound to the key and project; every other message names it in " +
      "Mcp-Session-Id. A request is answered as an SSE stream (a priming event with an id and `retry` first, on protocol " +
      "2025-11-25 and later) or as JSON; notifications and responses get 202. A `tools/call` over the rate limit is answered as a " +
      "tool result with `isError: true` and the 429 envelope; other messages over it get HTTP 429.",
    parameters: [{ ...SESSION, required: false, schema: { type: "string" } }, VERSION, PROJECT],
    requestBody: {
      required: true,
      description: "A JSON-RPC message, at most 1,048,576 bytes.",
      content: { "application/json": { schema: { type: ["object", "array"] } } },
    },
    responses: {
      "200": {
        description: "The answer to the request(s).",
        content: { "text/event-stream": { schema: { type: "string" } }, "application/json": { schema: { type: "object" } } },
      },
      "202": { description: "Notifications or responses accepted." },
      ...errorResponseRefs([400, 401, 403, 404, 429, 503]),
    },
  });
}

function mcpGet(): OpenApiObject {
  return mcp({
    operationId: "mcp.get",
    summary: "MCP streamable HTTP: the session's server-to-client stream, or a resumed one",
    description: "With Last-Event-ID, replays what a dropped stream missed (events of the last few minutes) and goes on.",
    parameters: [
      { ...SESSION, required: true, schema: { type: "string" } },
      VERSION,
      { name: "Last-Event-ID", in: "header", required: false, description: "The last event id the client received.", schema: { type: "string" } },
    ],
    responses: {
      "200": { description: "An SSE stream.", content: { "text/event-stream": { schema: { type: "string" } } } },
      ...errorResponseRefs([400, 401, 403, 404, 429, 503]),
    },
  });
}

function mcpDelete(): OpenApiObject {
  return mcp({
    operationId: "mcp.delete",
    summary: "MCP streamable HTTP: end the session",
    parameters: [{ ...SESSION, required: true, schema: { type: "string" } }, VERSION],
    responses: { "200": { description: "The session is closed." }, ...errorResponseRefs([401, 403, 404, 429, 503]) },
  });
}
