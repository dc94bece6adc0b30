/**
 * Opening many MCP sessions over streamable HTTP at /mcp, for the session id
 * checks: each `initialize` answers with a fresh `mcp-session-id`.
 */
import { expect } from "vitest";
import { createTestWorld, send } from "./test-app.js";

const ACCEPT = { accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** A UUID v4: 122 random bits, visible ASCII. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * Opens `count` sessions with a project-bound key on a fresh world (rate
 * limit lifted) and checks every id is a UUID v4, all distinct, and that the
 * server holds them all.
 */
export async function expectDistinctSessionIds(count: number): Promise<void> {
  const w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
  try {
    const ids = new Set<string>();
    for (let i = 0; i < count; i++) {
      const res = await send(w, "/mcp", { method: "POST", key: w.keys.bound, headers: ACCEPT, json: INITIALIZE });
      const id = res.headers.get("mcp-session-id")!;
      expect(id).toMatch(UUID_V4);
      ids.add(id);
      await res.body?.cancel();
    }
    expect(ids.size).toBe(count);
    expect(w.app.mcp.sessionCount).toBe(count);
  } finally {
    await w.close();
  }
}
