/**
 * `--tools` / `PKS_TOOLS`: the tools MCP offers, by profile or by name,
 * through real SDK clients — `pks mcp` over stdio (a child process) and
 * `/mcp` over HTTP — while REST dispatch keeps the whole catalog.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../../src/core/catalog.js";
import { actions as productActions, toolProfiles } from "../../tools/index.js";
import { pksCommand, REPO_ROOT, spawnPks } from "../support/spawn-pks.js";
import { createTestWorld, send } from "../support/test-app.js";

/** The code profile as the product serves it, in catalog order (the call-graph tool joins it when it is served). */
const CODE_TOOLS = productActions.map((a) => a.name).filter((n) => toolProfiles.code!.includes(n));

async function stdioTools(root: string, tools: string): Promise<{ names: string[]; client: Client }> {
  const c = pksCommand(["mcp", "--root", root, "--tools", tools]);
  const transport = new StdioClientTransport({ command: c.command, args: c.args, cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", PKS_LOG: "silent" }, stderr: "pipe" });
  const client = new Client({ name: "profiles", version: "1.0.0" });
  await client.connect(transport);
  return { names: (await client.listTools()).tools.map((t) => t.name), client };
}

describe("--tools over stdio, through the SDK client", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pks-profiles-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("--tools code lists exactly the code tools; another tool is not callable", async () => {
    const { names, client } = await stdioTools(root, "code");
    try {
      expect(names).toEqual(CODE_TOOLS);
      await expect(client.callTool({ name: "object_submit", arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool "object_submit"') });
      const status = await client.callTool({ name: "ingest_status", arguments: {} });
      expect(status.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it("names and profiles mix, comma-separated", async () => {
    const { names, client } = await stdioTools(root, "task_status, memory_query");
    await client.close();
    expect(names).toEqual(["memory_query", "task_status"]);
  });

  it("an unknown name stops pks with an error naming the choices (exit 1)", async () => {
    const child = spawnPks(["mcp", "--root", root, "--tools", "code,memory_qurey"]);
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(err).toContain('pks: --tools (PKS_TOOLS): unknown tool or profile "memory_qurey" (profiles: all, code; tools: memory_query,');
  });
});

describe("PKS_TOOLS over HTTP", () => {
  it("/mcp lists the code tools; REST dispatch and its list keep every action", async () => {
    const w = await createTestWorld({ actions: productActions, startWorker: false, env: { PKS_TOOLS: "code" } });
    try {
      const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8787/mcp"), {
        fetch: (url, init) => Promise.resolve(w.app.http.request(String(url), init)),
        requestInit: { headers: { host: "127.0.0.1:8787", authorization: `Bearer ${w.keys.owner}`, "x-project-id": w.projectId } },
      });
      const client = new Client({ name: "profiles", version: "1.0.0" });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(CODE_TOOLS);
      await client.close();
      const listed = (await (await send(w, "/v1/api/actions", { key: w.keys.owner })).json()) as { actions: Array<{ name: string }> };
      expect(listed.actions.map((a) => a.name)).toEqual(productActions.map((a) => a.name));
    } finally {
      await w.close();
    }
  });
});

describe("Catalog.select", () => {
  const catalog = new Catalog(productActions);
  it("all is the whole catalog; a profile keeps only the names the catalog holds (the call-graph tool when it is served)", () => {
    expect(catalog.select(["all"], toolProfiles)).toBe(catalog);
    expect(toolProfiles.code).toContain("code_graph");
    expect(CODE_TOOLS).toEqual(expect.arrayContaining(["memory_query", "code_references", "code_context_pack", "ingest_status"]));
    expect(CODE_TOOLS.length).toBe(catalog.get("code_graph") ? 5 : 4);
    expect(catalog.select(["code"], toolProfiles).list().map((a) => a.name)).toEqual(CODE_TOOLS);
    expect(() => catalog.select(["nope"], toolProfiles)).toThrow(/unknown tool or profile "nope" \(profiles: all, code; tools: memory_query, /);
    expect(() => catalog.select(["toString"], toolProfiles)).toThrow(/unknown tool or profile "toString"/);
  });
});
