/**
 * The product's tools over MCP (in memory, the SDK's own client): output
 * schemas every answer and every error validates against, strict input,
 * protocol errors, progress notifications, resource links, and the
 * code_references page's count and exact-symbol lookups.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/access/create-api-key.js";
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

/** Answers with a header echoed back. */
export function handle(ctx: Context): string {
  return ctx.header("x-id") ?? "none";
}

export function header(): string {
  return "top-level header";
}
`;

const report = (title: string) =>
  `# Incident: ${title}\n\n- Severity: high\n- Owner: Alice\n- Service: billing\n- Date: 2026-03-02\n\n${title} affected payments for a while.\n`;

type Json = Record<string, unknown>;

/** Both dialects a client may read our schemas in: 2020-12 (MCP's default) and draft-07 (the SDK client's Ajv). */
const ajvs = [new Ajv2020({ strict: false, allErrors: true }), new Ajv({ strict: false, allErrors: true })];

function validators(tool: Tool) {
  return ajvs.map((ajv) => ajv.compile(tool.outputSchema!));
}

function expectValid(tool: Tool, value: unknown): void {
  for (const validate of validators(tool)) {
    const ok = validate(value);
    expect(ok, `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}

describe("MCP tools", () => {
  let w: TestWorld;
  let owner: Client;
  let tools: Map<string, Tool>;
  let submitKey: string;

  const rest = (action: string, input: unknown, key = w.keys.owner) =>
    send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action, input } });
  const taskCount = async () => Number((await w.app.deps.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks"))!.n);

  /** Calls a tool as the owner; the SDK client checks `structuredContent` against the tool's schema, and so do both Ajvs. */
  async function call(name: string, args: Json, client = owner): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expectValid(tools.get(name)!, result.structuredContent);
    return result;
  }
  const resultOf = (r: CallToolResult) => (r.structuredContent as { result: Json }).result;

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { res } = await ingest(w, [
      fileEntry("src/server.ts", SERVER_TS),
      fileEntry("incidents/payments.md", report("Payment outage")),
      fileEntry("incidents/login.md", report("Login failures")),
      fileEntry("incidents/search.md", report("Search latency")),
    ]);
    expect(res.status).toBe(200);
    await w.app.worker.whenIdle();
    const schema = await send(w, "/v1/artifact-schemas", {
      method: "POST",
      key: w.keys.editor,
      project: w.projectId,
      json: { name: "Lead", fields: [{ name: "name", type: "string", required: true }] },
    });
    expect(schema.status).toBe(201);
    const { schemaId } = (await schema.json()) as { schemaId: string };
    submitKey = (await createApiKey(w.app.deps.db, { userId: w.userIds.editor, projectId: w.projectId, tier: "submit", boundTypeId: schemaId })).plaintext;
    owner = await connectMcpClient(w, { key: w.keys.owner });
    tools = new Map((await owner.listTools()).tools.map((t) => [t.name, t]));
  });
  afterAll(async () => {
    await owner.close();
    await w.close();
  });

  it("every tool advertises a strict input schema and an object output schema both dialects compile", () => {
    expect([...tools.keys()].sort()).toEqual(actions.map((a) => a.name).sort());
    for (const tool of tools.values()) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(validators(tool)).toHaveLength(2);
      // An error envelope is a valid structuredContent of every tool; a success of another tool is not.
      expectValid(tool, { error: { status: 400, code: "invalid_input", message: "invalid input: x" } });
      for (const validate of validators(tool)) expect(validate({ action: "another_tool", result: {} })).toBe(false);
    }
  });

  it("every action's answer validates against its outputSchema and is the REST body", async () => {
    const covered = new Set<string>();
    const check = async (name: string, args: Json, client = owner) => {
      const r = await call(name, args, client);
      expect(r.isError, `${name}: ${JSON.stringify(r.structuredContent)}`).toBeFalsy();
      covered.add(name);
      return resultOf(r);
    };

    await check("ingest_status", {});
    await check("memory_query", { query: "payment outage severity" });
    await check("memory_query", { query: "Who owns the billing service?", schema: { type: "object", properties: { owner: { type: "string" } } } });
    await check("memory_query", {});
    await check("memory_query", { kind: "entities" });
    const pack = await check("code_context_pack", { task: "read a request header in the Context class" });
    expect((pack.declarations as unknown[]).length).toBeGreaterThan(0);
    await check("code_references", { query: "head" });

    const proposals = await check("type_proposals", {});
    const proposalId = (proposals.proposals as Array<{ proposalId: string }>)[0]!.proposalId;
    const { entityId } = (await check("type_proposal_settle", { proposalId, decision: "confirm" })) as { entityId: string };
    const { categorySchema } = (await check("type_schema", { entityId })) as { categorySchema: { fields: unknown[]; version: number } };
    await check("type_schema_edit", { entityId, fields: categorySchema.fields, version: categorySchema.version });
    const refill = await check("type_refill", { entityId });
    const artifact = await check("artifact_update", { purpose: "summary of the payment incidents" });
    const fileId = (await w.app.deps.db.get<{ file_id: string }>("SELECT file_id FROM files WHERE path = 'incidents/login.md'"))!.file_id;
    const document = await check("document_ingest", { source: fileId });
    for (const queued of [refill, artifact, document]) expect(queued).toMatchObject({ taskId: expect.stringMatching(/^tsk_/), status: "queued" });
    const cancelled = await check("task_cancel", { taskId: (await check("document_ingest", { source: fileId })).taskId as string });
    expect(["running", "cancelled"]).toContain(cancelled.status);
    await w.app.tasks.whenIdle();
    await check("task_status", { taskId: artifact.taskId as string });

    const submitter = await connectMcpClient(w, { key: submitKey });
    await submitter.listTools();
    await check("object_submit", { data: { name: "Ada" } }, submitter);
    await submitter.close();

    expect([...covered].sort()).toEqual([...tools.keys()].sort());

    // structuredContent is exactly the REST body, and its text is the same JSON.
    const mcp = await call("code_references", { query: "Context" });
    const body = await (await rest("code_references", { query: "Context" })).text();
    expect(JSON.stringify(mcp.structuredContent)).toBe(body);
    expect((mcp.content[0] as { text: string }).text).toBe(body);
  });

  it("errors are isError results whose envelope validates against the same outputSchema", async () => {
    for (const [name, args] of [
      ["memory_query", { schema: { type: "object" } }],
      ["code_references", { limit: "ten" }],
      ["task_status", { taskId: "tsk_nope" }],
      ["type_schema", { entityId: "ent_nope" }],
    ] as const) {
      const r = await call(name, args);
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent, name).toEqual(await (await rest(name, args)).json());
    }
  });

  it("refuses unknown arguments by name over MCP and REST, listing the accepted ones, and changes nothing", async () => {
    const message = 'invalid input: unknown argument "question"; accepted: query, budget, kind, cursor, fileIds, entities, schema';
    const mcp = await call("memory_query", { question: "who owns billing?" });
    expect(mcp.isError).toBe(true);
    expect(mcp.structuredContent).toEqual({ error: { status: 400, code: "invalid_input", message } });
    const res = await rest("memory_query", { question: "who owns billing?" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { status: 400, code: "invalid_input", message } });

    // Several at once, and reported before the errors a misspelling causes.
    const several = await call("code_context_pack", { taks: "x", seeds: "y" });
    expect((several.structuredContent as { error: { message: string } }).error.message).toBe(
      'invalid input: unknown arguments "taks", "seeds"; accepted: task, seedSymbols, seedFiles, budget',
    );
    const before = await taskCount();
    const queued = await call("artifact_update", { purpose: "a report", audience: "execs" });
    expect((queued.structuredContent as { error: { message: string } }).error.message).toBe(
      'invalid input: unknown argument "audience"; accepted: purpose, kind, title, budget, artifactId',
    );
    expect(await taskCount()).toBe(before);
  });

  it("refuses every advertised bound it crosses: what the schema says is what is enforced", async () => {
    const before = await taskCount();
    const crossings: string[] = [];
    for (const tool of tools.values()) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Json>;
      for (const [field, schema] of Object.entries(properties)) {
        const over: unknown[] = [];
        if (typeof schema.maxLength === "number") over.push("x".repeat(schema.maxLength + 1));
        if (schema.minLength === 1) over.push("");
        if (typeof schema.maxItems === "number") over.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `item${i}`));
        if (typeof schema.maximum === "number") over.push(schema.maximum + 1);
        if (typeof schema.minimum === "number") over.push(schema.minimum - 1);
        for (const value of over) {
          const r = await call(tool.name, { ...requiredArgs(tool.name), [field]: value });
          expect(r.isError, `${tool.name}.${field} = ${JSON.stringify(value).slice(0, 40)}`).toBe(true);
          expect((r.structuredContent as { error: { message: string } }).error.message).toMatch(new RegExp(`^invalid input: ${field}: `));
          crossings.push(`${tool.name}.${field}`);
        }
      }
    }
    expect(crossings).toEqual(expect.arrayContaining(["memory_query.query", "memory_query.fileIds", "code_context_pack.task", "code_references.query", "document_ingest.source"]));
    // The seed lists' entry count is in their description, not in JSON Schema: 201 entries are refused too.
    const seeds = Array.from({ length: 201 }, (_, i) => `s${i}`).join(",");
    expect(tools.get("code_context_pack")!.inputSchema.properties!.seedSymbols).toMatchObject({ description: expect.stringContaining("at most 200 entries") });
    const r = await call("code_context_pack", { task: "x", seedSymbols: seeds });
    expect((r.structuredContent as { error: { message: string } }).error.message).toBe("invalid input: seedSymbols: at most 200 entries");
    expect(await taskCount()).toBe(before);
  });

  it("protocol mistakes are JSON-RPC invalid-params errors with one clean sentence", async () => {
    const raw = (params: unknown) =>
      owner.request({ method: "tools/call", params: params as never }, CallToolResultSchema).then(
        () => ({ code: 0, message: "answered" }),
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      );
    const noName = await raw({ arguments: {} });
    expect(noName.code).toBe(-32602);
    expect(noName.message).toContain("tools/call needs params.name, the tool to call (one of: memory_query,");
    expect(noName.message).not.toMatch(/invalid_type|expected|\[/);
    const unknown = await raw({ name: "memory_qery", arguments: {} });
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool "memory_qery"; tools: memory_query, ') });
    const notObject = await raw({ name: "memory_query", arguments: ["who?"] });
    expect(notObject).toMatchObject({ code: -32602, message: expect.stringContaining("params.arguments of memory_query must be an object") });
  });

  it("sends begin and end progress for a direct call when the client asks for it", async () => {
    for (const [name, args] of [
      ["memory_query", { query: "payment outage" }],
      ["code_context_pack", { task: "Context header" }],
    ] as const) {
      const seen: Array<{ progress: number; total?: number }> = [];
      const r = await owner.callTool({ name, arguments: args }, undefined, { onprogress: (p) => seen.push({ progress: p.progress, total: p.total }) });
      expect(r.isError, name).toBeFalsy();
      expect(seen, name).toEqual([
        { progress: 0, total: 1 },
        { progress: 1, total: 1 },
      ]);
    }
    // No token, no notifications.
    const listener = await connectMcpClient(w, { key: w.keys.owner });
    const quiet: unknown[] = [];
    listener.setNotificationHandler(ProgressNotificationSchema, (n) => {
      quiet.push(n);
    });
    await listener.callTool({ name: "memory_query", arguments: { query: "payment" } });
    expect(quiet).toEqual([]);
    await listener.close();
  });

  it("follows a detached task while the client listens for progress, and answers at once when it does not", async () => {
    const editor = await connectMcpClient(w, { key: w.keys.editor });
    await editor.listTools();
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const followed = (await editor.callTool({ name: "artifact_update", arguments: { purpose: "a memo on the login failures" } }, undefined, {
      onprogress: (p) => seen.push(p),
    })) as CallToolResult;
    expect(followed.isError).toBeFalsy();
    // structuredContent stays the REST body of the dispatch; the task as it ended rides beside it.
    expect(followed.structuredContent).toEqual({ action: "artifact_update", result: { taskId: expect.stringMatching(/^tsk_/), status: "queued" } });
    const { taskId } = resultOf(followed) as { taskId: string };
    const task = (followed._meta as { "pks/task": Json })["pks/task"];
    expect(task).toMatchObject({ taskId, status: "succeeded", result: { artifactId: expect.stringMatching(/^art_/) } });
    expect(JSON.parse((followed.content[1] as { text: string }).text)).toEqual({ task });
    const artifactId = (task.result as { artifactId: string }).artifactId;
    expect(followed.content).toContainEqual(
      expect.objectContaining({ type: "resource_link", uri: `pks://projects/${w.projectId}/artifacts/${artifactId}` }),
    );
    expect(seen[0]).toMatchObject({ progress: 0, message: `task ${taskId} queued` });
    // The end is the last step: artifact builds report 3 steps, so it is 4 of 4.
    expect(seen.at(-1)).toEqual({ progress: 4, total: 4, message: `task ${taskId} succeeded: 3 of 3` });
    const values = seen.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);

    const atOnce = (await editor.callTool({ name: "artifact_update", arguments: { purpose: "another memo" } })) as CallToolResult;
    expect(atOnce._meta?.["pks/task"]).toBeUndefined();
    expect(atOnce.content).toHaveLength(1);
    await editor.close();
  });

  it("links files, cells, entities and artifacts as resource_link items, leaving structuredContent the REST body", async () => {
    const base = `pks://projects/${w.projectId}`;
    const linksOf = (r: CallToolResult) => r.content.filter((c) => c.type === "resource_link") as Array<{ uri: string; name: string }>;

    const pack = await call("code_context_pack", { task: "Context header" });
    const packed = resultOf(pack) as { declarations: Array<{ fileId: string; filepath: string }> };
    expect(linksOf(pack)).toContainEqual(expect.objectContaining({ uri: `${base}/files/${packed.declarations[0]!.fileId}`, name: "src/server.ts" }));
    expect(new Set(linksOf(pack).map((l) => l.uri)).size).toBe(linksOf(pack).length);
    expect(JSON.stringify(pack.structuredContent)).toBe(await (await rest("code_context_pack", { task: "Context header" })).text());

    const refs = await call("code_references", { query: "header" });
    const rows = (resultOf(refs) as { references: Array<{ fileId: string }> }).references;
    expect(linksOf(refs).map((l) => l.uri)).toEqual([...new Set(rows.map((r) => `${base}/files/${r.fileId}`))]);

    const memory = await call("memory_query", { query: "Payment outage" });
    const answer = resultOf(memory) as { cells: Array<{ cellId: string }>; entities: Array<{ entityId: string; name: string }> };
    const uris = linksOf(memory).map((l) => l.uri);
    for (const c of answer.cells) expect(uris).toContain(`${base}/cells/${c.cellId}`);
    for (const e of answer.entities) expect(linksOf(memory)).toContainEqual(expect.objectContaining({ uri: `${base}/entities/${e.entityId}`, name: e.name }));
    expect(JSON.stringify(memory.structuredContent)).toBe(await (await rest("memory_query", { query: "Payment outage" })).text());
  });

  it("code_references counts its matches, flags a cut page, and finds a symbol by id or qualified name", async () => {
    const page = resultOf(await call("code_references", { query: "h", limit: 2 })) as { references: Json[]; total: number; more: boolean };
    expect(page.references).toHaveLength(2);
    const all = resultOf(await call("code_references", { query: "h", limit: 200 })) as { references: Array<Json>; total: number; more: boolean };
    expect(page.total).toBe(all.references.length);
    expect(page.more).toBe(true);
    expect(all).toMatchObject({ total: all.references.length, more: false });

    const qualified = resultOf(await call("code_references", { query: "Context.header" })) as {
      references: Array<{ symbol: string; kind: string; lines: number[]; symbolId: string }>;
      total: number;
    };
    const declaration = qualified.references.find((r) => r.kind === "declaration")!;
    expect(declaration).toMatchObject({ symbol: "header", lines: [4, 6] });
    expect(qualified.references.every((r) => r.symbolId === declaration.symbolId)).toBe(true);
    // The top-level `header` is another symbol: it is not listed.
    expect(qualified.references.some((r) => r.kind === "declaration" && r.lines[0] === 16)).toBe(false);
    expect(qualified.total).toBe(qualified.references.length);
    for (const query of ["context.HEADER", "Context::header", "Context#header", declaration.symbolId]) {
      expect(resultOf(await call("code_references", { query })), query).toEqual(qualified);
    }
    expect(resultOf(await call("code_references", { query: "sym_0000000000000000000000" }))).toEqual({ references: [], total: 0, more: false });
  });
});

/** The arguments each tool cannot do without, so a bound on another field is what gets refused. */
function requiredArgs(name: string): Json {
  switch (name) {
    case "code_context_pack":
      return { task: "x" };
    case "document_ingest":
      return { source: "x" };
    case "artifact_update":
      return { purpose: "x" };
    case "object_submit":
      return { data: {} };
    case "task_status":
      return { taskId: "tsk_x" };
    case "type_proposal_settle":
      return { proposalId: "prp_x", decision: "reject" };
    case "type_schema":
    case "type_schema_edit":
    case "type_refill":
      return { entityId: "ent_x" };
    default:
      return {};
  }
}
