/**
 * HTTP manners: the bearer challenge on every 401, MCP stream priming and
 * resumption through the session's bounded event store, 404 for a session
 * that is gone (and a fresh initialize after it), and the rate limit on
 * /mcp: housekeeping never counted, a `tools/call` over it answered as a
 * failed tool call, any other counted request kept at HTTP 429.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SessionEventStore } from "../../src/transports/http/event-store.js";
import { createHttpApp } from "../../src/transports/http/http-app.js";
import { McpHttpHandler, SSE_RETRY_MS } from "../../src/transports/http/mcp-http.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { testEndpoints } from "../support/test-catalog.js";

const ACCEPT = { accept: "application/json, text/event-stream" };
const RATE_ENVELOPE = { error: { status: 429, code: "rate_limited", message: "rate limit exceeded" } };

function initialize(protocolVersion: string) {
  return { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } } };
}

function toolCall(id: number, text = "x") {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name: "test_echo", arguments: { text } } };
}

/** The events of an SSE body: `id`, `retry` and `data` of each. */
function sseEvents(text: string): Array<{ id?: string; retry?: string; data?: string }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event: { id?: string; retry?: string; data?: string } = {};
      for (const line of block.split("\n")) {
        const at = line.indexOf(": ");
        const [field, value] = at < 0 ? [line.replace(/:$/, ""), ""] : [line.slice(0, at), line.slice(at + 2)];
        if (field === "id" || field === "retry" || field === "data") event[field] = value;
      }
      return event;
    });
}

/** Reads an open SSE stream until `done` holds for what arrived, then cancels it. */
async function readUntil(res: Response, done: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + 5_000;
  while (!done(text)) {
    if (Date.now() > deadline) throw new Error(`stream never held what was awaited: ${text}`);
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe("401 carries the bearer challenge", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ extraEndpoints: testEndpoints, startWorker: false });
  });
  afterEach(async () => w.close());

  it("no credential: realm only; a refused credential: error=\"invalid_token\"; on REST and on /mcp, with the spec message", async () => {
    const cells = `/v1/projects/${w.projectId}/cells`;
    const bare = await send(w, cells);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe('Bearer realm="pks"');
    expect(await bare.json()).toEqual({ error: { status: 401, code: "invalid_api_key", message: "invalid API key" } });

    const wrong = await send(w, cells, { key: "pks_not-a-key" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="pks", error="invalid_token"');

    const mcpBare = await send(w, "/mcp", { method: "POST", headers: ACCEPT, json: initialize("2025-06-18") });
    expect(mcpBare.status).toBe(401);
    expect(mcpBare.headers.get("www-authenticate")).toBe('Bearer realm="pks"');
    expect(await mcpBare.json()).toEqual({ error: { status: 401, code: "invalid_api_key", message: "invalid API key" } });
    const mcpWrong = await send(w, "/mcp", { method: "POST", headers: { ...ACCEPT, authorization: "Basic dTpw" }, json: initialize("2025-06-18") });
    expect(mcpWrong.status).toBe(401);
    expect(mcpWrong.headers.get("www-authenticate")).toBe('Bearer realm="pks", error="invalid_token"');

    // A session endpoint given a key: 401 `unauthorized`, the credential refused.
    const session = await send(w, `/v1/projects/${w.projectId}/session-things`, { key: w.keys.viewer });
    expect(session.status).toBe(401);
    expect(session.headers.get("www-authenticate")).toBe('Bearer realm="pks", error="invalid_token"');
    expect(await session.json()).toEqual({ error: { status: 401, code: "unauthorized", message: "unauthorized" } });
  });

  it("other refusals carry no challenge", async () => {
    const forbidden = await send(w, `/v1/projects/${w.projectId}/things`, { method: "PUT", key: w.keys.viewer });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("www-authenticate")).toBeNull();
    const ok = await send(w, `/v1/projects/${w.projectId}/cells`, { key: w.keys.viewer });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("www-authenticate")).toBeNull();
  });
});

describe("MCP streams are primed and resumable", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ startWorker: false });
  });
  afterEach(async () => w.close());

  async function open(protocolVersion: string) {
    const res = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, project: w.projectId, headers: ACCEPT, json: initialize(protocolVersion) });
    expect(res.status).toBe(200);
    const headers = { ...ACCEPT, "mcp-session-id": res.headers.get("mcp-session-id")!, "mcp-protocol-version": protocolVersion };
    const initialized = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: { jsonrpc: "2.0", method: "notifications/initialized" } });
    expect(initialized.status).toBe(202);
    return { first: await res.text(), headers };
  }

  it("on 2025-11-25 every SSE answer opens with a priming event: an id, retry 2000, no data", async () => {
    const { first, headers } = await open("2025-11-25");
    expect(first).toMatch(new RegExp(`^id: \\S+\\nretry: ${SSE_RETRY_MS}\\ndata: \\n\\n`));
    expect(SSE_RETRY_MS).toBe(2000);
    const call = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: toolCall(2) });
    expect(call.headers.get("content-type")).toContain("text/event-stream");
    const [priming, answer] = sseEvents(await call.text());
    expect(priming).toEqual({ id: expect.any(String), retry: "2000", data: "" });
    expect(JSON.parse(answer!.data!)).toMatchObject({ id: 2, result: { structuredContent: { action: "test_echo" } } });
    expect(answer!.id).not.toBe(priming!.id);
  });

  it("earlier protocol versions get no priming event (they cannot read an event without data)", async () => {
    const { first, headers } = await open("2025-06-18");
    expect(first.startsWith("event: message\n")).toBe(true);
    expect(first).not.toContain("retry:");
    const call = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: toolCall(2) });
    const events = sseEvents(await call.text());
    expect(events).toHaveLength(1);
    expect(events[0]!.retry).toBeUndefined();
  });

  it("GET with Last-Event-ID replays what came after that event on its stream; an unknown id answers 400", async () => {
    const { headers } = await open("2025-11-25");
    const call = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: toolCall(7, "resumed") });
    const [priming, answer] = sseEvents(await call.text());
    // The client lost the stream right after the priming event: it reconnects from that id.
    const resumed = await send(w, "/mcp", { method: "GET", key: w.keys.viewer, headers: { ...headers, accept: "text/event-stream", "last-event-id": priming!.id! } });
    expect(resumed.status).toBe(200);
    const replayed = sseEvents(await readUntil(resumed, (t) => t.includes(`id: ${answer!.id}\n`) && t.endsWith("\n\n")));
    expect(replayed).toEqual([{ id: answer!.id, data: answer!.data }]);
    expect(JSON.parse(answer!.data!)).toMatchObject({ id: 7, result: { structuredContent: { result: { echoed: "resumed" } } } });

    const unknown = await send(w, "/mcp", { method: "GET", key: w.keys.viewer, headers: { ...headers, accept: "text/event-stream", "last-event-id": "999999" } });
    expect(unknown.status).toBe(400);
    // Another key cannot resume someone else's stream: the session is not its own.
    const stolen = await send(w, "/mcp", { method: "GET", key: w.keys.editor, headers: { ...headers, accept: "text/event-stream", "last-event-id": priming!.id! } });
    expect(stolen.status).toBe(404);
  });
});

describe("the session event store is bounded", () => {
  const message = (n: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/message", params: { n } });
  async function replay(store: SessionEventStore, after: string): Promise<Array<[string, unknown]>> {
    const sent: Array<[string, unknown]> = [];
    await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
    return sent;
  }

  it("replays only the events after the given one, on its own stream", async () => {
    const store = new SessionEventStore();
    const a1 = await store.storeEvent("a", message(1));
    const b1 = await store.storeEvent("b", message(2));
    const a2 = await store.storeEvent("a", message(3));
    const a3 = await store.storeEvent("a", message(4));
    expect(await store.getStreamIdForEventId(a1)).toBe("a");
    expect(await store.getStreamIdForEventId(b1)).toBe("b");
    expect(await replay(store, a1)).toEqual([
      [a2, message(3)],
      [a3, message(4)],
    ]);
    expect(await replay(store, b1)).toEqual([]);
  });

  it("drops the oldest past the count, the bytes and the age; a dropped id cannot be resumed from", async () => {
    let now = 0;
    const store = new SessionEventStore({ maxEvents: 3, maxBytes: 10_000, maxAgeMs: 60_000 }, () => now);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await store.storeEvent("s", message(i)));
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    await expect(replay(store, ids[1]!)).rejects.toThrow(/no longer held/);
    expect((await replay(store, ids[2]!)).map(([id]) => id)).toEqual([ids[3], ids[4]]);

    const bytes = new SessionEventStore({ maxEvents: 100, maxBytes: 200, maxAgeMs: 60_000 }, () => now);
    const big = { jsonrpc: "2.0", method: "notifications/message", params: { text: "x".repeat(150) } } as JSONRPCMessage;
    const first = await bytes.storeEvent("s", big);
    const second = await bytes.storeEvent("s", big);
    expect(bytes.size).toBe(1);
    expect(await bytes.getStreamIdForEventId(first)).toBeUndefined();
    expect(await bytes.getStreamIdForEventId(second)).toBe("s");
    const huge = await bytes.storeEvent("s", { ...big, params: { text: "y".repeat(1_000) } } as JSONRPCMessage);
    expect(await bytes.getStreamIdForEventId(huge)).toBe("s");

    const aged = new SessionEventStore({ maxEvents: 100, maxBytes: 10_000, maxAgeMs: 1_000 }, () => now);
    const old = await aged.storeEvent("s", message(1));
    now += 1_001;
    const fresh = await aged.storeEvent("s", message(2));
    expect(await aged.getStreamIdForEventId(old)).toBeUndefined();
    expect(await aged.getStreamIdForEventId(fresh)).toBe("s");
    now += 1_001;
    expect(await aged.getStreamIdForEventId(fresh)).toBeUndefined();
    expect(aged.size).toBe(0);
  });
});

describe("a session that is gone answers 404, and the client initializes again", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ startWorker: false });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await w.close();
  });

  it("a session idle for 30 minutes is swept: its id answers 404 with a JSON-RPC error, and a new initialize opens another", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const mcp = new McpHttpHandler({ service: w.app.service, endpoints: w.app.endpoints, instructions: "" });
    const http = createHttpApp({ config: w.app.deps.config, service: w.app.service, mcp, endpoints: w.app.endpoints });
    const post = (headers: Record<string, string>, json: unknown) =>
      http.request("http://127.0.0.1:8787/mcp", {
        method: "POST",
        headers: { host: "127.0.0.1:8787", "content-type": "application/json", authorization: `Bearer ${w.keys.viewer}`, "x-project-id": w.projectId, ...ACCEPT, ...headers },
        body: JSON.stringify(json),
      });
    try {
      const opened = await post({}, initialize("2025-06-18"));
      expect(opened.status).toBe(200);
      const sessionId = opened.headers.get("mcp-session-id")!;
      await opened.text();
      const inSession = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
      expect((await post(inSession, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
      expect(mcp.sessionCount).toBe(1);

      vi.advanceTimersByTime(29 * 60_000);
      expect(mcp.sessionCount).toBe(1);
      vi.advanceTimersByTime(2 * 60_000);
      expect(mcp.sessionCount).toBe(0);

      const gone = await post(inSession, toolCall(2));
      expect(gone.status).toBe(404);
      expect(await gone.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Session not found" }, id: null });

      const again = await post({}, initialize("2025-06-18"));
      expect(again.status).toBe(200);
      expect(again.headers.get("mcp-session-id")).not.toBe(sessionId);
      await again.text();
    } finally {
      await mcp.close();
    }
  });

  it("with the SDK client: a deleted session makes the next call fail with 404; a new transport and connect work again", async () => {
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8787/mcp"), {
        fetch: (url, init) => Promise.resolve(w.app.http.request(String(url), init)),
        requestInit: { headers: { host: "127.0.0.1:8787", authorization: `Bearer ${w.keys.viewer}`, "x-project-id": w.projectId } },
      });
      const client = new Client({ name: "t", version: "1" });
      await client.connect(transport);
      return { client, transport };
    };
    const first = await connect();
    const ended = await send(w, "/mcp", { method: "DELETE", key: w.keys.viewer, headers: { "mcp-session-id": first.transport.sessionId!, "mcp-protocol-version": "2025-11-25" } });
    expect(ended.status).toBe(200);
    await expect(first.client.callTool({ name: "test_echo", arguments: {} })).rejects.toMatchObject({ code: 404 });
    await first.client.close();

    const second = await connect();
    expect(second.transport.sessionId).not.toBe(first.transport.sessionId);
    const result = await second.client.callTool({ name: "test_echo", arguments: { text: "back" } });
    expect(result.structuredContent).toMatchObject({ result: { echoed: "back" } });
    await second.client.close();
  });
});

describe("the rate limit on /mcp", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ startWorker: false });
  });
  afterEach(async () => w.close());

  it("the 61st tools/call in a minute is a tool result with isError and the 429 envelope, not a transport error", async () => {
    let requests = 0;
    const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8787/mcp"), {
      fetch: (url, init) => {
        requests++;
        return Promise.resolve(w.app.http.request(String(url), init));
      },
      requestInit: { headers: { host: "127.0.0.1:8787", authorization: `Bearer ${w.keys.viewer}`, "x-project-id": w.projectId } },
    });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(transport);
    // initialize, notifications/initialized, and the GET stream the client opens after it: none of them counted.
    await vi.waitFor(() => expect(requests).toBe(3));
    for (let n = 1; n <= 60; n++) {
      const ok = await client.callTool({ name: "test_echo", arguments: { text: String(n) } });
      expect(ok.isError, `call ${n}`).toBeFalsy();
    }
    expect(requests).toBe(63);

    const limited = await client.callTool({ name: "test_echo", arguments: { text: "61" } });
    expect(limited.isError).toBe(true);
    expect(limited.structuredContent).toEqual(RATE_ENVELOPE);
    const content = limited.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(content[0]!.text)).toEqual(RATE_ENVELOPE);
    const seconds = Number(/^rate limit exceeded; retry after (\d+) seconds$/.exec(content[1]!.text)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(limited._meta).toEqual({ "pks/retryAfterSeconds": seconds });

    // Housekeeping is never counted: the SDK client goes on listing.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_echo");
    await client.close();
  });

  it("with a limit of 5: initialize, ping, the lists and notifications never count, before or after the limit is spent; calls that do work do", async () => {
    const small = await createTestWorld({ startWorker: false, env: { PKS_RATE_LIMIT: "5" } });
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8787/mcp"), {
        fetch: (url, init) => Promise.resolve(small.app.http.request(String(url), init)),
        requestInit: { headers: { host: "127.0.0.1:8787", authorization: `Bearer ${small.keys.viewer}`, "x-project-id": small.projectId } },
      });
      const client = new Client({ name: "t", version: "1" }, { capabilities: { roots: { listChanged: true } } });
      await client.connect(transport);
      return client;
    };
    const housekeeping = async (client: Client) => {
      await client.ping();
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.listResources();
      await client.listResourceTemplates();
      await client.listPrompts();
      await client.setLoggingLevel("info");
      await client.sendRootsListChanged();
    };
    try {
      const client = await connect();
      for (let round = 0; round < 3; round++) await housekeeping(client);
      for (let n = 1; n <= 5; n++) expect((await client.callTool({ name: "test_echo", arguments: { text: String(n) } })).isError, `call ${n}`).toBeFalsy();
      const limited = await client.callTool({ name: "test_echo", arguments: { text: "6" } });
      expect(limited.structuredContent).toEqual(RATE_ENVELOPE);

      // Spent: housekeeping still answers, in this session and in a new one (initialize).
      await housekeeping(client);
      const again = await connect();
      await housekeeping(again);
      expect((await again.callTool({ name: "test_echo", arguments: {} })).structuredContent).toEqual(RATE_ENVELOPE);
      // A resource read does work: HTTP 429, which the SDK client throws on.
      await expect(client.readResource({ uri: `pks://projects/${small.projectId}/files/fil_none` })).rejects.toMatchObject({ code: 429 });
      await client.close();
      await again.close();
    } finally {
      await small.close();
    }
  });

  it("over the limit, only a tools/call in the caller's own session is a tool result; other counted requests keep HTTP 429 with Retry-After", async () => {
    const small = await createTestWorld({ startWorker: false, env: { PKS_RATE_LIMIT: "1" } });
    try {
      const opened = await send(small, "/mcp", { method: "POST", key: small.keys.viewer, project: small.projectId, headers: ACCEPT, json: initialize("2025-06-18") });
      const headers = { ...ACCEPT, "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
      await opened.text();
      expect((await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: { jsonrpc: "2.0", method: "notifications/initialized" } })).status).toBe(202);
      expect((await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: toolCall(2) })).status).toBe(200);

      const expect429 = async (res: Response) => {
        expect(res.status).toBe(429);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(await res.json()).toEqual(RATE_ENVELOPE);
      };
      // Not counted: a notification, initialize, tools/list, the GET stream.
      expect((await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } } })).status).toBe(202);
      const fresh = await send(small, "/mcp", { method: "POST", key: small.keys.viewer, project: small.projectId, headers: ACCEPT, json: initialize("2025-06-18") });
      expect(fresh.status).toBe(200);
      await fresh.text();
      const listed = await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: { jsonrpc: "2.0", id: 3, method: "tools/list" } });
      expect(listed.status).toBe(200);
      expect(await listed.text()).toContain("test_echo");
      // Counted, and refused with HTTP 429: a resource read, a batch, a tools/call outside the caller's session.
      await expect429(await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "pks://x" } } }));
      await expect429(await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: [toolCall(5)] }));
      const foreign = { ...headers, "mcp-session-id": "00000000-0000-4000-8000-000000000000" };
      await expect429(await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers: foreign, json: toolCall(6) }));
      // An unreadable body is refused as such, counted or not.
      expect((await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers: { ...headers, "content-type": "application/json" }, body: "{" })).status).toBe(400);

      // Within the session, the same tools/call is a tool failure carrying the same envelope.
      const call = await send(small, "/mcp", { method: "POST", key: small.keys.viewer, headers, json: toolCall(7) });
      expect(call.status).toBe(200);
      expect(Number(call.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await call.json()).toMatchObject({ jsonrpc: "2.0", id: 7, result: { isError: true, structuredContent: RATE_ENVELOPE } });
      // REST keeps its 429.
      await expect429(await send(small, `/v1/projects/${small.projectId}/cells`, { key: small.keys.viewer }));
    } finally {
      await small.close();
    }
  });
});
