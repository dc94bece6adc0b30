import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../../access/principal.js";
import { isAppError } from "../../errors.js";
import type { AppError } from "../../errors.js";
import type { Catalog } from "../../core/catalog.js";
import type { Service } from "../../core/service.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import { DEFAULT_MAX_RESULT_TOKENS } from "../mcp/result-limit.js";
import { createMcpServer } from "../mcp/server.js";
import { SessionEventStore } from "./event-store.js";
import { peerAddress } from "./http-env.js";
import type { HttpEnv } from "./http-env.js";
import { readJsonObjectOrArray } from "./read-json-rpc.js";

/**
 * The `retry` (ms) of each stream's priming event: how long a client waits
 * before it reconnects with `Last-Event-ID`. Two seconds lets a brief network
 * drop or proxy timeout pass without a storm of reconnects (a reconnect,
 * a GET, is not counted against the rate limit).
 */
export const SSE_RETRY_MS = 2_000;

interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** The key that opened the session; only it may use the session. */
  ownerKey: string;
  principal: Principal;
  projectId: string;
  lastSeen: number;
}

export interface McpHttpOptions {
  service: Service;
  /** The actions offered as tools (`--tools`); defaults to the service's whole catalog. */
  catalog?: Catalog;
  /** The most tokens one tool result may hold (default 25,000). */
  maxResultTokens?: number;
  /** The REST endpoints: MCP resources read through them. */
  endpoints: readonly AnyEndpoint[];
  instructions: string;
  /** Sessions idle longer than this are closed. */
  idleMs?: number;
  maxSessions?: number;
}

/**
 * Streamable HTTP MCP at `/mcp`. Each session is created by an initialize
 * request, bound to the API key and project of that request, and served by
 * its own MCP server over the shared catalog.
 */
export class McpHttpHandler {
  readonly #sessions = new Map<string, McpSession>();
  readonly #opts: Required<McpHttpOptions>;
  readonly #sweeper: NodeJS.Timeout;

  constructor(opts: McpHttpOptions) {
    this.#opts = { idleMs: 30 * 60_000, maxSessions: 20_000, catalog: opts.service.catalog, maxResultTokens: DEFAULT_MAX_RESULT_TOKENS, ...opts };
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    this.#sweeper.unref();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * One request to `/mcp`: the caller is authenticated, the body read (a
   * POST), and the request counted against the rate limit only when it
   * does work (see `doesWork`); then it goes to its session, or opens one.
   */
  async handle(c: Context<HttpEnv>): Promise<Response> {
    const principal = await this.#opts.service.authenticate(c.req.header("authorization"), ["key"], peerAddress(c));
    const body = c.req.method === "POST" ? await readJsonObjectOrArray(c.req.raw) : undefined;
    const sessionId = c.req.header("mcp-session-id");
    if (doesWork(body)) {
      try {
        await this.#opts.service.count(principal);
      } catch (err) {
        const answer = isAppError(err) && err.code === "rate_limited" ? this.#overLimit(sessionId, principal, body, err) : undefined;
        if (answer) return answer;
        throw err;
      }
    }
    c.set("principal", principal);
    if (sessionId) return this.#continue(c, sessionId, principal, body);
    if (c.req.method !== "POST") return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required");
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.some((m) => isInitializeRequest(m))) {
      return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required");
    }
    return this.#open(c, principal, body);
  }

  async #open(c: Context<HttpEnv>, principal: Principal, body: unknown): Promise<Response> {
    const named = c.req.header("x-project-id") || c.req.query("projectId") || undefined;
    const { projectId } = await this.#opts.service.resolveScope(principal, named);
    if (this.#sessions.size >= this.#opts.maxSessions) this.#evictOldest();
    let session: McpSession | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumability: each SSE stream opens with a priming event (an id and `retry`) for clients
      // on protocol 2025-11-25 or later, and what a dropped stream missed is replayed on reconnect.
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        if (session) this.#sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    session = { transport, ownerKey: principal.keyId ?? principal.userId, principal, projectId, lastSeen: Date.now() };
    const current = session;
    const server = createMcpServer({
      service: this.#opts.service,
      catalog: this.#opts.catalog,
      maxResultTokens: this.#opts.maxResultTokens,
      endpoints: this.#opts.endpoints,
      caller: () => ({ principal: current.principal, projectId: current.projectId }),
      instructions: this.#opts.instructions,
    });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: body });
  }

  async #continue(c: Context<HttpEnv>, sessionId: string, principal: Principal, body: unknown): Promise<Response> {
    const session = this.#ownSession(sessionId, principal);
    if (!session) return jsonRpcError(404, "Session not found");
    session.lastSeen = Date.now();
    // Every POST is read here, 1 MiB at most (400 \`invalid request body\` past it), never by the SDK's own larger limit.
    if (c.req.method !== "POST") return session.transport.handleRequest(c.req.raw);
    return session.transport.handleRequest(c.req.raw, { parsedBody: body });
  }

  /** The session by id, if this caller's key opened it. */
  #ownSession(sessionId: string | undefined, principal: Principal): McpSession | undefined {
    const session = sessionId ? this.#sessions.get(sessionId) : undefined;
    return session && session.ownerKey === (principal.keyId ?? principal.userId) ? session : undefined;
  }

  /**
   * The answer to a request refused by the rate limit, when it is a
   * `tools/call` in the caller's own session: a tool result with
   * `isError: true` whose `structuredContent` is the REST 429 envelope, so a
   * client (and the model behind it) reads "rate limit exceeded, retry after
   * N seconds" as a failed call rather than a broken transport. Any other
   * counted request (a resource read, a prompt, a batch, a call outside the
   * caller's session) gets `undefined`: the caller answers the HTTP 429
   * with `Retry-After`.
   */
  #overLimit(sessionId: string | undefined, principal: Principal, message: unknown, refusal: AppError): Response | undefined {
    const session = this.#ownSession(sessionId, principal);
    if (!session || !isJSONRPCRequest(message) || message.method !== "tools/call") return undefined;
    session.lastSeen = Date.now();
    const retryAfter = refusal.headers["Retry-After"] ?? "1";
    const envelope = refusal.toEnvelope();
    const result: CallToolResult = {
      isError: true,
      content: [
        { type: "text", text: JSON.stringify(envelope) },
        { type: "text", text: `${refusal.message}; retry after ${retryAfter} seconds` },
      ],
      structuredContent: envelope,
      _meta: { "pks/retryAfterSeconds": Number(retryAfter) },
    };
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }), {
      status: 200,
      headers: { "content-type": "application/json", "mcp-session-id": sessionId!, "retry-after": retryAfter },
    });
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#opts.idleMs;
    for (const [id, s] of this.#sessions) {
      if (s.lastSeen < cutoff) this.#drop(id, s);
    }
  }

  #evictOldest(): void {
    let oldest: [string, McpSession] | undefined;
    for (const entry of this.#sessions) if (!oldest || entry[1].lastSeen < oldest[1].lastSeen) oldest = entry;
    if (oldest) this.#drop(oldest[0], oldest[1]);
  }

  #drop(id: string, s: McpSession): void {
    this.#sessions.delete(id);
    void s.transport.close().catch(() => undefined);
  }

  /** Closes every session (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }
}

/**
 * The protocol's housekeeping: what a client sends to connect, stay alive
 * and learn what is offered. It reads nothing of the project and is never
 * rate-limited, so a client whose key spent its calls still connects, pings
 * and lists (the SDK client throws on an HTTP 429 to any of these).
 */
const HOUSEKEEPING = new Set(["initialize", "ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list", "logging/setLevel"]);

/**
 * Whether a POSTed body does work and so counts against the rate limit: a
 * request (or a batch holding one) other than housekeeping. Notifications,
 * a client's responses (to sampling), `GET` (the event stream) and `DELETE`
 * (ending the session) never count.
 */
export function doesWork(body: unknown): boolean {
  if (body === undefined) return false;
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((m) => isJSONRPCRequest(m) && !HOUSEKEEPING.has(m.method));
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

