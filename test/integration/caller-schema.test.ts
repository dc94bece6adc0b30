import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateKey } from "../../src/access/authenticate.js";
import { createMcpServer } from "../../src/transports/mcp/server.js";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { ingest, fileEntry } from "../support/ingest-helpers.js";

const DOCS: Array<[string, string]> = [
  ["budget.md", "# Budget\n\nThe budget for the new office is forty thousand euros a year.\n\nThe budget owner is Dana Reyes.\n"],
  ["deploy.md", "# Deployment\n\nThe service deploys from the main branch every night. Rollbacks take ten minutes.\n"],
];

/** `^(\w+\s?)*$` backtracks exponentially on V8 over a sentence that ends in a period. */
const REDOS = { type: "object", properties: { budget: { type: "string", pattern: "^(\\w+\\s?)*$" } } };

type Envelope = { result?: MemoryQueryAnswer; error?: { status: number; code: string; message: string } };

describe("memory_query with caller-supplied schemas", () => {
  let w: TestWorld;
  const call = (input: Record<string, unknown>) =>
    send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input } });
  /** Status, body, and milliseconds from `since` until the answer was read. */
  const timed = async (input: Record<string, unknown>, since: number) => {
    const res = await call(input);
    const body = (await res.json()) as Envelope;
    return { status: res.status, body, ms: performance.now() - since };
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, DOCS.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("the backtracking pattern answers 200 at once, and a plain request sent beside it is answered meanwhile", async () => {
    // "At once" against the same request without the schema, timed here: a
    // backtracking match over the 60-character value would take minutes,
    // so the bound tells the two apart on a loaded host too.
    const alone = await timed({ query: "budget for the new office" }, performance.now());
    const bound = Math.max(2000, 20 * alone.ms);
    const started = performance.now();
    const [hostile, plain] = await Promise.all([
      timed({ query: "budget for the new office", schema: REDOS }, started),
      timed({ query: "When does the service deploy?" }, started),
    ]);
    expect(hostile.status).toBe(200);
    expect(plain.status).toBe(200);
    expect(hostile.ms).toBeLessThan(bound);
    expect(plain.ms).toBeLessThan(bound);
    const budgetRow = hostile.body.result!.cells.find((c) => c.text.startsWith("The budget for the new office"));
    expect(budgetRow).toBeDefined();
    // The sentences end in a period, which neither \w nor \s matches, so none may fill the field; a row of bare words (the heading) may.
    const { budget } = hostile.body.result!.structured as { budget?: string };
    if (budget !== undefined) expect(budget).toMatch(/^[A-Za-z]+(?: [A-Za-z]+)*$/);
    expect(hostile.body.result!.citations!["/budget"] ?? []).not.toContain(budgetRow!.cellId);
    expect(plain.body.result!.cells[0]!.text).toMatch(/deploys from the main branch/);
  });

  it("an outside $ref, a lookaround pattern and an oversized schema are 400 naming why", async () => {
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [
        { type: "object", properties: { budget: { $ref: "https://other.example/tenant.json" } } },
        'invalid input: schema: $ref "https://other.example/tenant.json" points outside the schema; only "#" and "#/…" pointers into it are allowed',
      ],
      [{ type: "object", properties: { budget: { type: "string", pattern: "^(?=budget)" } } }, /^invalid input: schema: pattern "\^\(\?=budget\)" is not supported \(/],
      [
        { type: "object", properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, { type: "string" }])) },
        "invalid input: schema: has 2000 properties; at most 500",
      ],
    ];
    for (const [schema, message] of cases) {
      const res = await call({ query: "budget", schema });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as Required<Pick<Envelope, "error">>;
      expect(error.code).toBe("invalid_input");
      if (typeof message === "string") expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
  });

  it("the same $id sent by two callers in turn: each gets its own schema's answer", async () => {
    const first = await timed({ query: "budget owner", schema: { $id: "urn:pks:same", type: "object", properties: { owner: { type: "string" } } } }, 0);
    const second = await timed({ query: "budget owner", schema: { $id: "urn:pks:same", type: "object", properties: { nightly: { type: "string" } } } }, 0);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.result!.structured).toEqual({ owner: "Dana Reyes" });
    expect(first.body.result!.structuredBy).toBe("extractive");
    expect(Object.keys(second.body.result!.structured as object)).not.toContain("owner");
  });
});

/** What a sampling client's model answers, given the prompt pks sent (rows as `[cellId] text` lines). */
type Model = (prompt: string, request: CreateMessageRequest["params"]) => string | Promise<string>;

/** The cellId of the prompt's row whose text contains `words`. */
function cellIdOf(prompt: string, words: string): string {
  const line = prompt.split("\n").find((l) => l.startsWith("[") && l.includes(words));
  if (!line) throw new Error(`no row holds ${JSON.stringify(words)} in the prompt`);
  return line.slice(1, line.indexOf("]"));
}

describe("memory_query structured answers over MCP: the client's model (sampling), checked, or the extractive fill", () => {
  let w: TestWorld;
  const schema = { type: "object", properties: { ownerFirstName: { type: "string" } } };
  const query = "Who is the budget owner?";
  /** A real SDK client, with the `sampling` capability and `model` as its answer when given one. */
  async function connect(model?: Model): Promise<{ client: Client; asked: Array<CreateMessageRequest["params"]> }> {
    const principal = await authenticateKey(w.app.deps.db, `Bearer ${w.keys.viewer}`);
    const server = createMcpServer({ service: w.app.service, catalog: w.app.mcpCatalog, maxResultTokens: w.app.deps.config.maxResultTokens, endpoints: w.app.endpoints, caller: () => ({ principal, projectId: w.projectId }), instructions: "" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "sampling-test", version: "1.0.0" }, { capabilities: model ? { sampling: {} } : {} });
    const asked: Array<CreateMessageRequest["params"]> = [];
    if (model) {
      client.setRequestHandler(CreateMessageRequestSchema, async (request): Promise<CreateMessageResult> => {
        asked.push(request.params);
        const content = request.params.messages[0]!.content;
        const prompt = !Array.isArray(content) && content.type === "text" ? content.text : "";
        return { model: "test-model", role: "assistant", content: { type: "text", text: await model(prompt, request.params) } };
      });
    }
    await client.connect(clientSide);
    return { client, asked };
  }
  async function ask(client: Client, input: Record<string, unknown>): Promise<MemoryQueryAnswer> {
    const result = await client.callTool({ name: "memory_query", arguments: input });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    return (result.structuredContent as { result: MemoryQueryAnswer }).result;
  }
  /** The REST answer to the same question: always extractive, there is no client model to ask. */
  async function rest(): Promise<MemoryQueryAnswer> {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input: { query, schema } } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: MemoryQueryAnswer }).result;
  }

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, DOCS.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("a good answer from the client's model is used, cited from the returned rows", async () => {
    const { client, asked } = await connect((prompt) => {
      const id = cellIdOf(prompt, "Dana Reyes");
      return "```json\n" + JSON.stringify({ structured: { ownerFirstName: "Dana" }, citations: { "/ownerFirstName": [id] } }) + "\n```";
    });
    const answer = await ask(client, { query, schema });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.includeContext).toBe("none");
    const ownerRow = answer.cells.find((c) => c.text.includes("Dana Reyes"))!;
    expect(answer.structuredBy).toBe("sampling");
    expect(answer.structured).toEqual({ ownerFirstName: "Dana" });
    expect(answer.citations).toEqual({ "/ownerFirstName": [ownerRow.cellId] });
    // Only the returned rows are shown to the model, each with its cellId.
    const prompt = (asked[0]!.messages[0]!.content as { text: string }).text;
    for (const c of answer.cells) expect(prompt).toContain(`[${c.cellId}] `);
    // The extractive fill cannot read a first name out of "The budget owner is Dana Reyes": REST leaves the field out.
    const plain = await rest();
    expect(plain.structuredBy).toBe("extractive");
    expect(plain.structured).toEqual({});
    await client.close();
  });

  it("bad JSON, a citation outside the rows, a schema miss, an unsupported value or a failing model: the extractive answer", async () => {
    const expected = await rest();
    const models: Array<[string, Model]> = [
      ["bad JSON", () => "The owner's first name is Dana."],
      ["a cellId not among the rows", () => JSON.stringify({ structured: { ownerFirstName: "Dana" }, citations: { "/ownerFirstName": ["cel_invented"] } })],
      ["a value the schema refuses", (p) => JSON.stringify({ structured: { ownerFirstName: 7 }, citations: { "/ownerFirstName": [cellIdOf(p, "Dana Reyes")] } })],
      ["a value its cell does not hold", (p) => JSON.stringify({ structured: { ownerFirstName: "Sam" }, citations: { "/ownerFirstName": [cellIdOf(p, "Dana Reyes")] } })],
      ["a field with no citation", () => JSON.stringify({ structured: { ownerFirstName: "Dana" }, citations: {} })],
      ["a model that fails", () => Promise.reject(new Error("the user declined"))],
    ];
    for (const [why, model] of models) {
      const { client, asked } = await connect(model);
      const answer = await ask(client, { query, schema });
      expect(asked, why).toHaveLength(1);
      expect(answer.structuredBy, why).toBe("extractive");
      expect(answer.structured, why).toEqual(expected.structured);
      expect(answer.citations, why).toEqual(expected.citations);
      await client.close();
    }
  });

  it("over streamable HTTP the model is asked on the call's own stream, and its checked answer is used", async () => {
    const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:8787/mcp"), {
      requestInit: { headers: { authorization: `Bearer ${w.keys.viewer}`, "x-project-id": w.projectId } },
      fetch: async (url, init) => {
        const headers = new Headers(init?.headers);
        headers.set("host", "127.0.0.1:8787");
        return w.app.http.request(String(url), { ...init, headers });
      },
    });
    const client = new Client({ name: "sampling-http", version: "1.0.0" }, { capabilities: { sampling: {} } });
    let asked = 0;
    client.setRequestHandler(CreateMessageRequestSchema, async (request): Promise<CreateMessageResult> => {
      asked++;
      const content = request.params.messages[0]!.content;
      const prompt = !Array.isArray(content) && content.type === "text" ? content.text : "";
      const text = JSON.stringify({ structured: { ownerFirstName: "Dana" }, citations: { "/ownerFirstName": [cellIdOf(prompt, "Dana Reyes")] } });
      return { model: "test-model", role: "assistant", content: { type: "text", text } };
    });
    await client.connect(transport);
    const answer = await ask(client, { query, schema });
    expect(asked).toBe(1);
    expect(answer.structuredBy).toBe("sampling");
    expect(answer.structured).toEqual({ ownerFirstName: "Dana" });
    await client.close();
  });

  it("a client without sampling is never asked: the extractive answer, as over REST", async () => {
    const { client } = await connect();
    const answer = await ask(client, { query: "budget owner", schema: { type: "object", properties: { owner: { type: "string" } } } });
    expect(answer.structuredBy).toBe("extractive");
    expect(answer.structured).toEqual({ owner: "Dana Reyes" });
    const cited = answer.citations!["/owner"]!;
    expect(cited).toHaveLength(1);
    expect(answer.cells.find((c) => c.cellId === cited[0])!.text).toContain("Dana Reyes");
    await client.close();
  });
});
