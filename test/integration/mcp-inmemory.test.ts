import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectMcpClient } from "../support/mcp-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const connect = (w: TestWorld, key: string, projectId: string) => connectMcpClient(w, { key, projectId, instructions: "hello" });

describe("MCP over InMemoryTransport", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld();
  });
  afterEach(async () => w.close());

  it("lists the catalog as tools with JSON Schema inputs and annotations", async () => {
    const client = await connect(w, w.keys.viewer, w.projectId);
    expect(client.getInstructions()).toBe("hello");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["test_echo", "test_write", "test_submit", "test_fail"]);
    const write = tools.find((t) => t.name === "test_write")!;
    expect(write.inputSchema).toMatchObject({ type: "object", required: ["value"] });
    expect(write.annotations?.readOnlyHint).toBe(false);
    await client.close();
  });

  it("a result is the REST body, byte for byte", async () => {
    const client = await connect(w, w.keys.viewer, w.projectId);
    const mcp = await client.callTool({ name: "test_echo", arguments: { text: "same" } });
    const rest = await send(w, "/v1/api/actions", {
      method: "POST",
      key: w.keys.viewer,
      project: w.projectId,
      json: { action: "test_echo", input: { text: "same" } },
    });
    const restText = await rest.text();
    expect(mcp.isError).toBeFalsy();
    expect(JSON.stringify(mcp.structuredContent)).toBe(restText);
    expect((mcp.content as Array<{ text: string }>)[0]!.text).toBe(restText);
    await client.close();
  });

  it("errors are isError results carrying the REST envelope", async () => {
    const client = await connect(w, w.keys.viewer, w.projectId);
    const cases: Array<[string, Record<string, unknown>]> = [
      ["test_write", { value: 1 }],
      ["test_write", { value: "x" }],
      ["test_fail", {}],
    ];
    for (const [name, args] of cases) {
      const mcp = await client.callTool({ name, arguments: args });
      const rest = await send(w, "/v1/api/actions", {
        method: "POST",
        key: w.keys.viewer,
        project: w.projectId,
        json: { action: name, input: args },
      });
      expect(mcp.isError, name).toBe(true);
      expect(mcp.structuredContent, name).toEqual(await rest.json());
    }
    // An unknown tool is a protocol error (JSON-RPC -32602), not a tool result.
    await expect(client.callTool({ name: "unknown_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it("re-checks access on every call", async () => {
    const client = await connect(w, w.keys.editor, w.projectId);
    expect((await client.callTool({ name: "test_write", arguments: { value: 1 } })).isError).toBeFalsy();
    const { setMembership } = await import("../../src/store/access/memberships.js");
    await setMembership(w.app.deps.db, w.projectId, w.userIds.editor, "viewer");
    const denied = await client.callTool({ name: "test_write", arguments: { value: 2 } });
    expect(denied.isError).toBe(true);
    expect(denied.structuredContent).toMatchObject({ error: { code: "action_not_available" } });
    await client.close();
  });
});
