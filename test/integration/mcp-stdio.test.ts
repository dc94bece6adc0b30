import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pksCommand, REPO_ROOT, spawnPks } from "../support/spawn-pks.js";

describe("pks mcp over stdio (child process)", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pks-stdio-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("initializes, lists tools and answers a call as the local owner, with no key", async () => {
    const c = pksCommand(["mcp", "--root", root]);
    const transport = new StdioClientTransport({
      command: c.command,
      args: c.args,
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", PKS_LOG: "silent" },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe("pks");
    expect(client.getInstructions()).toContain("knowledge service");
    const { tools } = await client.listTools();
    expect(Array.isArray(tools)).toBe(true);
    const call = await client.callTool({ name: "no_such_action", arguments: {} });
    expect(call.isError).toBe(true);
    expect(call.structuredContent).toEqual({ error: { status: 404, code: "unknown_action", message: "unknown action" } });
    await client.close();
  });

  it("stdout carries JSON-RPC only: 500 fuzzed input lines leave every stdout line parseable", async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 100_000);
    const line = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 4 }),
      fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), method: fc.string({ maxLength: 30 }), params: fc.jsonValue() }).map((v) => JSON.stringify(v)),
      fc.constantFrom('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', '{"jsonrpc":"2.0","id":2,"method":"ping"}', "{", "\u0000\u0001", "[]"),
    );
    const lines = fc.sample(line, { numRuns: 500, seed }).map((l) => l.replace(/[\r\n]/g, " "));
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
    });
    const child = spawnPks(["mcp", "--root", root]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
    });
    child.stdin.write(`${init}\n`);
    for (const l of lines) child.stdin.write(`${l}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: "last", method: "ping" })}\n`);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (out.includes('"id":"last"')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    const outLines = out.split("\n").filter((l) => l.length > 0);
    expect(outLines.length, `seed ${seed}`).toBeGreaterThan(1);
    for (const l of outLines) {
      const msg = JSON.parse(l) as { jsonrpc?: string };
      expect(msg.jsonrpc, `seed ${seed}: ${l}`).toBe("2.0");
    }
  });
});
