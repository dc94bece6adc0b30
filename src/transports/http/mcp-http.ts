import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../../access/principal.js";
import type { Service } from "../../core/service.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import { createMcpServer } from "../mcp/server.js";
import type { HttpEnv } from "./http-env.js";
import { readJsonObjectOrArray } from "./read-json-rpc.js";

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
    this.#opts = { idleMs: 30 * 60_000, maxSessions: 20_000, ...opts };
    this.#sweeper = setInterval(() => this.#sweep(), 60_000);
    this.#sweeper.unref();
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async handle(c: Context<HttpEnv>): Promise<Response> {
    const principal = c.get("principal");
    const sessionId = c.req.header("mcp-session-id");
    if (sessionId) return this.#continue(c, sessionId, principal);
    if (c.req.method !== "POST") return jsonRpcError(400, "Bad Request: Mcp-Session-Id header is required");
    const body = await readJsonObjectOrArray(c.req.raw);
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
      endpoints: this.#opts.endpoints,
      caller: () => ({ principal: current.principal, projectId: current.projectId }),
      instructions: this.#opts.instructions,
    });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw, { parsedBody: body });
  }

  async #continue(c: Context<HttpEnv>, sessionId: string, principal: Principal): Promise<Response> {
    const session = this.#sessions.get(sessionId);
    if (!session || session.ownerKey !== (principal.keyId ?? principal.userId)) {
      return jsonRpcError(404, "Session not found");
    }
    session.lastSeen = Date.now();
    // Every POST is read here, 1 MiB at most (400 \`invalid request body\` past it), never by the SDK's own larger limit.
    if (c.req.method !== "POST") return session.transport.handleRequest(c.req.raw);
    return session.transport.handleRequest(c.req.raw, { parsedBody: await readJsonObjectOrArray(c.req.raw) });
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

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

