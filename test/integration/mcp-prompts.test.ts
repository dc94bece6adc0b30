/**
 * MCP prompts and completions (in memory, the SDK's own client): the prompt
 * files listed with their arguments, filled in and checked (-32602 with one
 * sentence), a document argument resolved to its file; and completion of
 * prompt arguments and resource template variables from the project.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const SERVER_TS = `/** Per-request state. */
export class Context {
  /** Reads one request header. */
  header(name: string): string | undefined {
    return this.headers.get(name);
  }
  headers = new Map<string, string>();
}

export function handle(ctx: Context): string {
  return ctx.header("x-id") ?? "none";
}
`;
const GUIDE = "# Billing guide\n\nThe billing service charges cards nightly.\nThe team of Alice Martin owns the billing service at Acme Corp.\n";

const textOf = (r: GetPromptResult) => (r.messages[0]!.content as { type: "text"; text: string }).text;
const protocolError = (message: string) => ({ code: -32602, message: `MCP error -32602: ${message}` });

describe("MCP prompts and completions", () => {
  let w: TestWorld;
  let client: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { body } = await ingest(w, [
      fileEntry("src/server.ts", SERVER_TS),
      fileEntry("docs/guide.md", GUIDE),
      ...Array.from({ length: 101 }, (_, i) => fileEntry(`notes/n${String(i).padStart(3, "0")}.txt`, `Note ${i}.\n`)),
    ]);
    for (const a of body.accepted) ids[a.path] = a.fileId;
    await w.app.worker.whenIdle();
    client = await connectMcpClient(w, { key: w.keys.viewer });
  });
  afterAll(async () => {
    await client.close();
    await w.close();
  });

  it("lists the prompts of prompts/ with their arguments", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      ["explain_symbol", [["symbol", true]]],
      ["plan_change", [["task", true]]],
      ["summarize_document", [["document", true]]],
      ["about_entity", [["entity", true]]],
    ]);
    for (const p of prompts) expect(p.title && p.description, p.name).toBeTruthy();
  });

  it("fills each prompt's arguments into a message that names the tools to call", async () => {
    const symbol = textOf(await client.getPrompt({ name: "explain_symbol", arguments: { symbol: "Context.header" } }));
    expect(symbol).toContain('Call `code_references` with `{"query": "Context.header"}`');
    expect(symbol).toContain("code_context_pack");
    expect(symbol).not.toContain("{{");

    const task = "Let handle() fall back to the x-request-id header";
    const plan = await client.getPrompt({ name: "plan_change", arguments: { task } });
    expect(plan.messages).toHaveLength(1);
    expect(plan.messages[0]!.role).toBe("user");
    expect(textOf(plan)).toContain(`Plan this change to the project:\n\n${task}\n`);
    for (const tool of ["code_context_pack", "code_references", "memory_query"]) expect(textOf(plan)).toContain(tool);

    const entity = textOf(await client.getPrompt({ name: "about_entity", arguments: { entity: "Acme Corp" } }));
    expect(entity).toContain('`{"query": "Acme Corp", "entities": ["Acme Corp"]}`');
  });

  it("summarize_document finds the document by path or fileId and links its resource", async () => {
    const fileId = ids["docs/guide.md"]!;
    const uri = `pks://projects/${w.projectId}/files/${fileId}`;
    for (const document of ["docs/guide.md", "./docs/guide.md", fileId]) {
      const prompt = await client.getPrompt({ name: "summarize_document", arguments: { document } });
      expect(textOf(prompt), document).toContain(`Summarize the document \`docs/guide.md\` (fileId \`${fileId}\`)`);
      expect(textOf(prompt), document).toContain(`"fileIds": ["${fileId}"]`);
      expect(prompt.messages[1], document).toEqual({ role: "user", content: { type: "resource_link", uri, name: "docs/guide.md" } });
    }
    for (const document of ["docs/guide", "docs/missing.md", "fil_0000000000000000000000"]) {
      await expect(client.getPrompt({ name: "summarize_document", arguments: { document } }), document).rejects.toMatchObject(
        protocolError(`prompt summarize_document: no file "${document}" in this project; give a project path (as resources/list names it) or a fileId`),
      );
    }
  });

  it("refuses bad prompts/get requests with -32602 and one sentence", async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: "explain_symbol" }, 'prompt explain_symbol needs argument "symbol": The name to explain, a qualified name (Session.send) or a symbolId (sym_…).'],
      [{ name: "explain_symbol", arguments: { symbol: "  " } }, 'prompt explain_symbol needs argument "symbol": The name to explain, a qualified name (Session.send) or a symbolId (sym_…).'],
      [{ name: "explain_symbol", arguments: { symbol: "x", depth: "2" } }, 'unknown argument "depth" for prompt explain_symbol; accepted: symbol'],
      [{ name: "explain_symbol", arguments: { symbol: 42 } }, 'argument "symbol" of explain_symbol must be a string'],
      [{ name: "explain_symbol", arguments: { symbol: "x".repeat(4001) } }, 'argument "symbol" of explain_symbol must be at most 4000 characters'],
      [{ name: "explain_symbol", arguments: "symbol" }, "params.arguments of explain_symbol must be an object of strings"],
      [{ name: "explain" }, 'unknown prompt "explain"; prompts: explain_symbol, plan_change, summarize_document, about_entity'],
      [{}, "prompts/get needs params.name, the prompt to get (one of: explain_symbol, plan_change, summarize_document, about_entity)"],
    ];
    for (const [params, message] of cases) {
      const err = await client.request({ method: "prompts/get", params } as never, {} as never).catch((e: unknown) => e);
      expect(err, JSON.stringify(params).slice(0, 80)).toMatchObject(protocolError(message));
    }
  });

  it("completes prompt arguments: declared names, file paths (100 at most, hasMore), entity names", async () => {
    const complete = (name: string, argument: string, value: string) =>
      client.complete({ ref: { type: "ref/prompt", name }, argument: { name: argument, value } }).then((r) => r.completion);

    const symbols = await complete("explain_symbol", "symbol", "Cont");
    expect(symbols.values[0]).toBe("Context");
    expect(symbols.hasMore).toBe(false);
    expect(symbols.total).toBe(symbols.values.length);
    expect((await complete("explain_symbol", "symbol", "hand")).values).toContain("handle");

    const notes = await complete("summarize_document", "document", "notes/");
    expect(notes.values).toHaveLength(100);
    expect(notes.values).toEqual([...notes.values].sort());
    expect(notes.values.every((v) => /^notes\/n\d{3}\.txt$/.test(v))).toBe(true);
    expect(notes.hasMore).toBe(true);
    expect(await complete("summarize_document", "document", "docs/")).toEqual({ values: ["docs/guide.md"], hasMore: false, total: 1 });
    expect(await complete("summarize_document", "document", "nothing/")).toEqual({ values: [], hasMore: false, total: 0 });

    expect((await complete("about_entity", "entity", "Alice")).values).toEqual(["Alice Martin"]);
    expect(await complete("plan_change", "task", "Let")).toEqual({ values: [], hasMore: false, total: 0 });
  });

  it("completes resource template variables: a file's id by path prefix, an entity's id by name, the session's project", async () => {
    const complete = (uri: string, argument: string, value: string) =>
      client.complete({ ref: { type: "ref/resource", uri }, argument: { name: argument, value } }).then((r) => r.completion);
    expect((await complete("pks://projects/{projectId}/files/{fileId}", "fileId", "docs/")).values).toEqual([ids["docs/guide.md"]]);
    const entities = (await (await send(w, `/v1/projects/${w.projectId}/entities?q=Acme`, { key: w.keys.viewer })).json()) as Array<{ entityId: string }>;
    expect((await complete("pks://projects/{projectId}/entities/{entityId}", "entityId", "Acme")).values).toEqual([entities[0]!.entityId]);
    expect((await complete("pks://projects/{projectId}/files/{fileId}", "projectId", "")).values).toEqual([w.projectId]);
    expect((await complete("pks://projects/{projectId}/files/{fileId}", "projectId", "prj_zz")).values).toEqual([]);
    expect((await complete("pks://projects/{projectId}/cells/{cellId}", "cellId", "cel_")).values).toEqual([]);
  });

  it("refuses completions of what does not exist with -32602", async () => {
    const cases: Array<[unknown, string]> = [
      [{ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } }, 'unknown prompt "nope"; prompts: explain_symbol, plan_change, summarize_document, about_entity'],
      [{ ref: { type: "ref/prompt", name: "explain_symbol" }, argument: { name: "task", value: "" } }, 'unknown argument "task" for prompt explain_symbol; accepted: symbol'],
      [{ ref: { type: "ref/resource", uri: "pks://x/{id}" }, argument: { name: "id", value: "" } }, 'unknown resource template "pks://x/{id}"'],
      [{ ref: { type: "ref/resource", uri: "pks://projects/{projectId}/ingest" }, argument: { name: "fileId", value: "" } }, 'resource template pks://projects/{projectId}/ingest has no variable "fileId"'],
      [{ ref: { type: "ref/tool", name: "x" }, argument: { name: "x", value: "" } }, 'params.ref must be {"type": "ref/prompt", "name"} or {"type": "ref/resource", "uri"}'],
      [{ ref: { type: "ref/prompt", name: "explain_symbol" } }, "params.argument must be {name, value}, both strings"],
    ];
    for (const [params, message] of cases) {
      const err = await client.request({ method: "completion/complete", params } as never, {} as never).catch((e: { code: number; message: string }) => e);
      expect(err, message).toMatchObject({ code: -32602 });
      expect((err as { message: string }).message, message).toContain(message);
    }
  });
});
