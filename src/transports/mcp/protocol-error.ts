import { z } from "zod";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { toAppError } from "../../errors.js";

/**
 * A JSON-RPC error sent as is: the SDK answers with the `code`, `message`
 * and `data` of what a handler throws (its own `McpError` would prefix the
 * message with "MCP error -32602:").
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** MCP's code for a resource that does not exist (resources/read). */
export const RESOURCE_NOT_FOUND = -32002;

/** -32602 with one sentence: the request's params are wrong. */
export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message);
}

/**
 * A failure of the pipeline as a JSON-RPC error carrying the app's message,
 * and its envelope's `{status, code, message}` as `data`: 404 is -32002
 * (resource not found), a 400 is -32602 (invalid params), a 5xx -32603, and
 * anything else (401, 403, 429) -32000.
 */
export function fromAppError(err: unknown): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const e = toAppError(err);
  const envelope = e.toEnvelope().error;
  const code =
    e.status === 404 ? RESOURCE_NOT_FOUND : e.status === 400 ? ErrorCode.InvalidParams : e.status >= 500 ? ErrorCode.InternalError : -32000;
  return new ProtocolError(code, e.message, envelope);
}

/** The params of a request, unchecked: each handler checks what it reads and answers -32602 with one sentence. */
export type RawParams = Record<string, unknown>;

/**
 * Registers a request handler that sees the raw params. The SDK's own
 * registration parses requests with its schemas first and answers a
 * malformed one with a dump of validation issues; this one leaves the
 * checking to the handler, so every mistake is one plain sentence.
 */
export function handleRequest(server: Server, method: string, handler: (params: RawParams, extra: RequestExtra) => Promise<unknown>): void {
  const schema = z.object({ method: z.literal(method), params: z.unknown().optional() });
  const register = Protocol.prototype.setRequestHandler as unknown as (
    this: Server,
    schema: z.ZodType,
    handler: (request: { params?: unknown }, extra: RequestExtra) => Promise<unknown>,
  ) => void;
  register.call(server, schema, (request, extra) => handler(isObject(request.params) ? request.params : {}, extra));
}

export type RequestExtra = RequestHandlerExtra<never, ServerNotification>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
