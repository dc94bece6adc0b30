import { get_encoding } from "tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { searchCellPool, searchCells } from "../../src/store/search/lexical-search.js";

type Answer = MemoryQueryAnswer;

const DOCS: Array<[string, string]> = [
  ["billing.md", "# Billing\n\nInvoices are issued on the first day of each month. Late invoices incur a fee of 25 euros.\n\n## Contacts\n\nThe billing owner is Dana Reyes. Questions go to billing@example.com.\n"],
  ["deploy.md", "# Deployment\n\nThe service deploys from the main branch every night. Rollbacks take ten minutes.\n"],
  ["faq.txt", "Refunds are processed within 5 days. Invoices can be downloaded as PDF.\n"],
  ["noise.md", "# Garden\n\nTomatoes need sun. Basil grows well beside tomatoes.\n"],
];

describe("memory_query", () => {
  let w: TestWorld;
  let fileIds: Record<string, string>;
  const call = (input: Record<string, unknown>) =>
    send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input } });
  const answer = async (input: Record<string, unknown>) => ((await (await call(input)).json()) as { result: Answer }).result;

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { body } = await ingest(w, DOCS.map(([p, t]) => fileEntry(p, t)));
    fileIds = Object.fromEntries(body.accepted.map((a) => [a.path, a.fileId]));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("ranks the claims that answer the question first, each row with its id", async () => {
    const a = await answer({ query: "When are invoices issued?" });
    expect(a.query).toBe("When are invoices issued?");
    expect(a.cells[0]!.text).toBe("Invoices are issued on the first day of each month.");
    expect(a.cells.every((c) => /^cel_/.test(c.cellId))).toBe(true);
    expect(a.cells.some((c) => /Tomatoes/.test(c.text))).toBe(false);
    expect(a.artifacts).toEqual([]);
    expect(a.budget).toBe(4096);
  });

  it("packs to the budget exactly: used counts the serialized rows with tiktoken and never exceeds it", async () => {
    const enc = get_encoding("o200k_base");
    const query = "invoices refunds deployment billing";
    const floor = enc.encode(JSON.stringify({ query, cells: [], entities: [], artifacts: [], declarations: [], files: [] })).length;
    for (const budget of [floor, floor + 1, 60, 150, 4096]) {
      const a = await answer({ query, budget });
      const serialized = JSON.stringify({ query: a.query, cells: a.cells, entities: a.entities, artifacts: a.artifacts, declarations: a.declarations, files: a.files });
      expect(a.used).toBe(enc.encode(serialized).length);
      expect(a.used).toBeLessThanOrEqual(budget);
    }
    const small = await answer({ query: "invoices refunds deployment billing", budget: 60 });
    const large = await answer({ query: "invoices refunds deployment billing", budget: 4096 });
    expect(small.cells.length).toBeLessThan(large.cells.length);
    enc.free();
  });

  it("keeps used ≤ budget for every accepted budget: below the empty answer's cost is 400 naming the minimum", async () => {
    const enc = get_encoding("o200k_base");
    const query = "a long question about ".repeat(40) + "invoices";
    const floor = enc.encode(JSON.stringify({ query, cells: [], entities: [], artifacts: [], declarations: [], files: [] })).length;
    enc.free();
    for (const budget of [1, 5, floor - 1]) {
      const res = await call({ query, budget });
      expect(res.status, String(budget)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        `invalid input: budget: must be at least ${floor} tokens, what the empty answer already costs`,
      );
    }
    for (const budget of [floor, floor + 3, floor + 40]) {
      const a = await answer({ query, budget });
      expect(a.used).toBeLessThanOrEqual(budget);
    }
  });

  it("fileIds restricts to knowledge from those files", async () => {
    const a = await answer({ query: "invoices", fileIds: [fileIds["faq.txt"]] });
    expect(a.cells.map((c) => c.text)).toEqual(["Invoices can be downloaded as PDF."]);
  });

  it("entities the query names, and input.entities, seed the walk and are returned", async () => {
    const owner = (await w.app.deps.db.get<{ cell_id: string }>("SELECT cell_id FROM cells WHERE text LIKE 'The billing owner%'"))!.cell_id;
    const named = await answer({ query: "what does Dana Reyes own" });
    expect(named.entities[0]).toMatchObject({ kind: "person", name: "Dana Reyes" });
    const dana = named.entities[0]!.entityId;
    expect(named.cells[0]!.cellId).toBe(owner);
    const linked = (await (await send(w, `/v1/projects/${w.projectId}/cells?entityId=${dana}`, { key: w.keys.viewer })).json()) as Array<{ cellId: string }>;
    expect(linked.map((c) => c.cellId)).toContain(owner);
    const seeded = await answer({ query: "month", entities: ["dana reyes"] });
    expect(seeded.entities.map((e) => e.entityId)).toContain(dana);
    expect(seeded.cells.map((c) => c.cellId)).toContain(owner);
  });

  it("with schema: structured conforms, cites the rows it came from, and invents nothing", async () => {
    const schema = {
      type: "object",
      properties: {
        owner: { type: "string", description: "billing owner" },
        contact: { type: "string", format: "email" },
        lateFee: { type: "number", description: "late invoice fee" },
        phone: { type: ["string", "null"], pattern: "^\\+\\d+$" },
      },
      required: ["owner", "phone"],
    };
    const a = await answer({ query: "billing owner, contact and late fee", schema });
    expect(a.structured).toEqual({ owner: expect.stringContaining("Dana Reyes"), contact: "billing@example.com", lateFee: 25, phone: null });
    const texts = new Map(a.cells.map((c) => [c.cellId, c.text]));
    for (const [path, ids] of Object.entries(a.citations!)) {
      expect(ids.length, path).toBeGreaterThan(0);
      for (const id of ids) expect(texts.has(id), path).toBe(true);
    }
    expect(a.citations!["/phone"]).toBeUndefined();
  });

  it("400 query is required when a schema is supplied; 400 for an invalid schema", async () => {
    const res = await call({ schema: { type: "object" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { status: 400, code: "query_required_for_schema", message: "query is required when a schema is supplied" } });
    const bad = await call({ query: "x", schema: { type: "nonsense" } });
    expect(bad.status).toBe(400);
  });

  it("list mode pages the raw collection with nextCursor, empty on the last page", async () => {
    const first = (await (await call({})).json()) as { result: { kind: string; items: Array<{ cellId: string }>; nextCursor: string } };
    expect(first.result.kind).toBe("cells");
    expect(first.result.items.length).toBeGreaterThan(0);
    expect(first.result.nextCursor).toBe("");
    const entities = (await (await call({ kind: "entities" })).json()) as { result: { kind: string; items: unknown[] } };
    expect(entities.result.kind).toBe("entities");
    const bad = await call({ cursor: "nope" });
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe("invalid cursor");
  });
  it("scores the cell pool and the best cells of the documents it leaves out in one search, as each searched alone", async () => {
    const db = w.app.deps.db;
    const match = '"invoices" OR "billing" OR "tomatoes" OR "rollbacks"';
    const documents = ["billing.md", "noise.md", "deploy.md", "faq.txt"].map((p) => fileIds[p]!);
    for (const limit of [1, 2, 50]) {
      for (const restrict of [undefined, [fileIds["billing.md"]!, fileIds["faq.txt"]!]]) {
        // The documents an answer gives are of its own file search, within `restrict`.
        const ranked = restrict ? documents.filter((f) => restrict.includes(f)) : documents;
        const pool = await searchCellPool(db, [w.projectId], match, limit, { fileIds: ranked, maxFiles: 2, perFile: 1 }, restrict);
        expect(pool.hits).toEqual(await searchCells(db, [w.projectId], match, limit, restrict));
        const seen = new Set(pool.hits.map((h) => h.fileId));
        const left = ranked.filter((f) => !seen.has(f)).slice(0, 2);
        const alone = (await Promise.all(left.map((f) => searchCells(db, [w.projectId], match, 1, [f])))).flat();
        const order = (a: { fileId: string; score: number }, b: { fileId: string; score: number }) => (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : b.score - a.score);
        expect(pool.documentCells).toEqual(alone.sort(order));
        if (limit === 1 && !restrict) expect(pool.documentCells).toHaveLength(2);
      }
    }
  });
});

const SMART_ROUTER = `import type { Router } from "./router.js";

/** Tries each router in turn. */
export class SmartRouter<T> {
  #routers: Router<T>[] = [];

  add(method: string, path: string, handler: T): void {
    for (const r of this.#routers) r.add(method, path, handler);
  }

  /** Picks the first router that can handle the path and delegates every later match to it. */
  match(method: string, path: string): T[] {
    for (const router of this.#routers) {
      const found = router.match(method, path);
      if (found.length > 0) return found;
    }
    throw new Error("no router can handle " + path);
  }
}
`;

const CORS = `/** Cross-origin resource sharing. */
type CORSOptions = {
  origin?: string | string[];
  allowMethods?: string[];
  maxAge?: number;
  credentials?: boolean;
};

export const cors = (options?: CORSOptions) => (req: Request) => options?.origin ?? req.headers.get("origin");
`;

const SETTINGS = `/** What the server reads at start. */
export interface ServerSettings {
  port: number;
  host: string;
}

export function readServerSettings(text: string): ServerSettings {
  return JSON.parse(text) as ServerSettings;
}
`;

/** A benchmark stub naming a variable \`router\`, as many files of a router library do. */
const stub = (i: number) => `import { makeRouter } from "../src/router.js";

export const router = makeRouter();
router.add("GET", "/user/${i}", () => "user ${i}");
router.add("POST", "/user/${i}", () => "saved ${i}");
`;

describe("memory_query serves code", () => {
  let w: TestWorld;
  let fileIds: Record<string, string>;
  const enc = get_encoding("o200k_base");
  const call = (input: Record<string, unknown>) =>
    send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input } });
  const answer = async (input: Record<string, unknown>) => {
    const res = await call(input);
    expect(res.status, JSON.stringify(input)).toBe(200);
    return ((await res.json()) as { result: Answer }).result;
  };
  const serialized = (a: Answer) => JSON.stringify({ query: a.query, cells: a.cells, entities: a.entities, artifacts: a.artifacts, declarations: a.declarations, files: a.files });

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const stubs = Array.from({ length: 8 }, (_, i) => fileEntry(`benchmarks/router-${i}.ts`, stub(i)));
    const { body } = await ingest(w, [
      fileEntry("src/router/smart-router.ts", SMART_ROUTER),
      fileEntry("src/middleware/cors.ts", CORS),
      fileEntry("src/settings.ts", SETTINGS),
      fileEntry("docs/notes.md", "# Notes\n\nThe router table is rebuilt on every deploy.\n"),
      ...stubs,
    ]);
    fileIds = Object.fromEntries(body.accepted.map((a) => [a.path, a.fileId]));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    enc.free();
    await w.close();
  });

  it("a code question answers declaration rows with kind, container, header, file and lines; a common word naming many variables does not crowd them out", async () => {
    const a = await answer({ query: "How does the router pick a handler?" });
    const match = a.declarations.find((d) => d.name === "SmartRouter.match");
    expect(match).toMatchObject({
      kind: "method",
      container: "SmartRouter",
      fileId: fileIds["src/router/smart-router.ts"],
      filepath: "src/router/smart-router.ts",
      lineStart: 12,
      lineEnd: 18,
      doc: "Picks the first router that can handle the path and delegates every later match to it.",
    });
    expect(match!.signature).toMatch(/^match\(method: string, path: string\): T\[\]/);
    expect(match!.symbolId).toMatch(/^sym_/);
    expect(a.declarations.slice(0, 2).map((d) => d.name)).toContain("SmartRouter.match");
    // Eight variables named `router` are no seeds of the answer (at most one comes back as a related entity, with its file).
    const routers = a.entities.filter((e) => e.name === "router");
    expect(routers.length).toBeLessThanOrEqual(1);
    for (const r of routers) expect(r.filepath).toMatch(/^benchmarks\/router-\d\.ts$/);
    expect(a.cells.every((c) => c.cellId !== undefined && c.filepath !== undefined)).toBe(true);
    expect(a.used).toBe(enc.encode(serialized(a)).length);
  });

  it("members are listed with their declaration: an object type's member lines and an interface's properties", async () => {
    const corsAnswer = await answer({ query: "What options does the CORS middleware accept?" });
    const options = corsAnswer.declarations.find((d) => d.name === "CORSOptions")!;
    expect(options).toMatchObject({ kind: "type", filepath: "src/middleware/cors.ts", lineStart: 2, lineEnd: 7 });
    expect(options).not.toHaveProperty("container");
    expect(options.members).toEqual(["origin?: string | string[]", "allowMethods?: string[]", "maxAge?: number", "credentials?: boolean"]);
    const settings = (await answer({ query: "Which server settings are read at start?" })).declarations.find((d) => d.name === "ServerSettings")!;
    expect(settings.members).toEqual(["port: number", "host: string"]);
  });

  it("fileIds restricts declaration rows like every other row: an unknown id leaves none", async () => {
    const none = await answer({ query: "How does the router pick a handler?", fileIds: ["fil_unknown"] });
    expect(none).toMatchObject({ cells: [], entities: [], artifacts: [], declarations: [], files: [] });
    const only = fileIds["src/middleware/cors.ts"]!;
    const a = await answer({ query: "How does the router pick a handler? What options does the CORS middleware accept?", fileIds: [only] });
    expect(a.declarations.length).toBeGreaterThan(0);
    expect(a.declarations.every((d) => d.fileId === only)).toBe(true);
    expect(a.cells.every((c) => c.fileId === only)).toBe(true);
  });

  it("budgets 1, 5, 10 and 20 are below what the empty answer costs: 400 naming the minimum; from the minimum up, used ≤ budget, exactly counted", async () => {
    const query = "How does the router pick a handler?";
    const floor = enc.encode(JSON.stringify({ query, cells: [], entities: [], artifacts: [], declarations: [], files: [] })).length;
    expect(floor).toBeGreaterThan(20);
    for (const budget of [1, 5, 10, 20]) {
      const res = await call({ query, budget });
      expect(res.status, String(budget)).toBe(400);
      expect(await res.json()).toEqual({
        error: { status: 400, code: "invalid_input", message: `invalid input: budget: must be at least ${floor} tokens, what the empty answer already costs` },
      });
    }
    for (const budget of [floor, floor + 5, floor + 30, floor + 120, 300, 1000, 4096]) {
      const a = await answer({ query, budget });
      expect(a.used, String(budget)).toBe(enc.encode(serialized(a)).length);
      expect(a.used).toBeLessThanOrEqual(budget);
    }
    const small = await answer({ query, budget: 300 });
    expect(small.declarations.length + small.cells.length).toBeGreaterThan(0);
  });
});

const RETRY = `/** Schedules the next attempt of a charge whose payment failed. */
export function retryCharge(chargeId: string, attempt: number): Date {
  return new Date(Date.now() + attempt * 86_400_000);
}
`;

/** A module of the billing code touching charges, one of many. */
const chargeStep = (i: number) => `/** Step ${i} of settling a charge. */
export function settleChargeStep${i}(chargeId: string): string {
  return chargeId + "-${i}";
}
`;

describe("memory_query: the files to open, budgets and the best row at a tight budget", () => {
  let w: TestWorld;
  const enc = get_encoding("o200k_base");
  const answer = async (input: Record<string, unknown>) => {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input } });
    expect(res.status, JSON.stringify(input)).toBe(200);
    return ((await res.json()) as { result: Answer }).result;
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, [
      fileEntry("docs/payments.md", "# Payments\n\n## Retries\n\nFailed charges are retried three times, one day apart, before the invoice is marked unpaid.\n"),
      fileEntry("src/billing/retry.ts", RETRY),
      ...Array.from({ length: 12 }, (_, i) => fileEntry(`src/billing/settle-${i}.ts`, chargeStep(i))),
    ]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    enc.free();
    await w.close();
  });

  it("at budget 200 the row that says what was asked wins, whatever its kind: the cell saying three times", async () => {
    const a = await answer({ query: "How many times are failed charges retried?", budget: 200 });
    expect(a.cells[0]?.text).toMatch(/three times/);
    expect(a.used).toBeLessThanOrEqual(200);
  });

  it("lists at least ten files to open, best first, holding the files of its declarations, counted in used", async () => {
    const a = await answer({ query: "How is a failed charge retried?" });
    expect(a.files.length).toBeGreaterThanOrEqual(10);
    expect(a.files[0]!.filepath).toBe("src/billing/retry.ts");
    const listed = new Set(a.files.map((f) => f.filepath));
    expect(a.declarations.slice(0, 3).every((d) => listed.has(d.filepath))).toBe(true);
    expect(a.used).toBe(enc.encode(JSON.stringify({ query: a.query, cells: a.cells, entities: a.entities, artifacts: a.artifacts, declarations: a.declarations, files: a.files })).length);
  });

  it("gives more with a bigger budget while relevance holds", async () => {
    const query = "How is a charge settled step by step?";
    const sizes = [];
    for (const budget of [300, 1000, 4096, 16_384]) {
      const a = await answer({ query, budget });
      sizes.push(a.declarations.length + a.cells.length + a.files.length);
    }
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]!).toBeGreaterThanOrEqual(sizes[i - 1]!);
    expect(sizes[3]!).toBeGreaterThan(sizes[0]!);
  });
});
