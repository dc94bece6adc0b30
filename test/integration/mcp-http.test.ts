import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { expectDistinctSessionIds } from "../support/mcp-sessions.js";

const ACCEPT = { accept: "application/json, text/event-stream" };
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** Reads the JSON-RPC message out of a JSON or SSE answer. */
async function message(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (res.headers.get("content-type")?.includes("text/event-stream")) {
    const data = text.split("\n").find((l) => l.startsWith("data: "));
    return JSON.parse(data!.slice(6)) as Record<string, unknown>;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

describe("MCP over streamable HTTP at /mcp", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld();
  });
  afterEach(async () => w.close());

  async function open(key: string, project?: string) {
    const res = await send(w, "/mcp", { method: "POST", key, project, headers: ACCEPT, json: initialize });
    expect(res.status).toBe(200);
    const sessionId = res.headers.get("mcp-session-id")!;
    await message(res);
    const headers = { ...ACCEPT, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    await send(w, "/mcp", { method: "POST", key, headers, json: { jsonrpc: "2.0", method: "notifications/initialized" } });
    return { sessionId, headers };
  }

  it("initialize, tools/list and tools/call run in a session bound to the key's project", async () => {
    const { sessionId, headers } = await open(w.keys.viewer, w.projectId);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const list = await message(await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: { jsonrpc: "2.0", id: 2, method: "tools/list" } }));
    expect((list.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain("test_echo");
    const call = await message(
      await send(w, "/mcp", {
        method: "POST",
        key: w.keys.viewer,
        headers,
        json: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_echo", arguments: { text: "x" } } },
      }),
    );
    expect((call.result as { structuredContent: unknown }).structuredContent).toEqual({
      action: "test_echo",
      result: { echoed: "x", projectId: w.projectId, level: "viewer" },
    });
  });

  it("401 without a key; 404 for a session opened by another key", async () => {
    const none = await send(w, "/mcp", { method: "POST", headers: ACCEPT, json: initialize });
    expect(none.status).toBe(401);
    const { headers } = await open(w.keys.viewer, w.projectId);
    const stolen = await send(w, "/mcp", { method: "POST", key: w.keys.editor, headers, json: { jsonrpc: "2.0", id: 2, method: "tools/list" } });
    expect(stolen.status).toBe(404);
  });

  it("400 without a session id on a non-initialize request; 404 for an unknown id; 400 for a bad protocol version", async () => {
    const missing = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers: ACCEPT, json: { jsonrpc: "2.0", id: 2, method: "tools/list" } });
    expect(missing.status).toBe(400);
    const unknown = await send(w, "/mcp", {
      method: "POST",
      key: w.keys.viewer,
      headers: { ...ACCEPT, "mcp-session-id": "00000000-0000-4000-8000-000000000000" },
      json: { jsonrpc: "2.0", id: 2, method: "tools/list" },
    });
    expect(unknown.status).toBe(404);
    const { headers } = await open(w.keys.viewer, w.projectId);
    const badVersion = await send(w, "/mcp", {
      method: "POST",
      key: w.keys.viewer,
      headers: { ...headers, "mcp-protocol-version": "1999-01-01" },
      json: { jsonrpc: "2.0", id: 2, method: "tools/list" },
    });
    expect(badVersion.status).toBe(400);
  });

  it("initialize names the project like REST: 400 unnamed, 404 not a member", async () => {
    const unnamed = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers: ACCEPT, json: initialize });
    expect(unnamed.status).toBe(400);
    const foreign = await send(w, "/mcp", { method: "POST", key: w.keys.outsider, project: w.projectId, headers: ACCEPT, json: initialize });
    expect(foreign.status).toBe(404);
    const bound = await send(w, "/mcp", { method: "POST", key: w.keys.bound, headers: ACCEPT, json: initialize });
    expect(bound.status).toBe(200);
  });

  // Ten thousand sessions (about 12 s on two cores) are in the soak run: test/soak/mcp-http-sessions.test.ts.
  it("200 session ids: unique, visible ASCII, at least 122 random bits (UUID v4)", async () => {
    await expectDistinctSessionIds(200);
  });

  it("DELETE closes the session", async () => {
    const { headers } = await open(w.keys.viewer, w.projectId);
    const del = await send(w, "/mcp", { method: "DELETE", key: w.keys.viewer, headers });
    expect(del.status).toBe(200);
    const after = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: { jsonrpc: "2.0", id: 9, method: "tools/list" } });
    expect(after.status).toBe(404);
  });
});
