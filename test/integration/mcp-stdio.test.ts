import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pksCommand, REPO_ROOT } from "../support/spawn-pks.js";
import { fuzzStdio } from "../support/stdio-fuzz.js";

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
    // An unknown tool is the protocol's invalid-params error, naming it.
    await expect(client.callTool({ name: "no_such_action", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('unknown tool "no_such_action"'),
    });
    await client.close();
  });

  // A short fixed-seed fuzz; the soak run (test/soak/mcp-stdio-fuzz.test.ts) sends 500 lines from a random seed.
  it("stdout carries JSON-RPC only: 100 fuzzed input lines (seed 1) leave every stdout line parseable", async () => {
    const seed = 1;
    const outLines = await fuzzStdio(root, { seed, lines: 100 });
    expect(outLines.length, `seed ${seed}`).toBeGreaterThan(1);
    for (const l of outLines) {
      const msg = JSON.parse(l) as { jsonrpc?: string };
      expect(msg.jsonrpc, `seed ${seed}: ${l}`).toBe("2.0");
    }
  });
});
