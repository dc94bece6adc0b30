import { get_encoding } from "tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { codeContextPackOutput } from "../../tools/code-context-pack.js";
import { actions } from "../../tools/index.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Pack = z.infer<typeof codeContextPackOutput>;

const FILES: Array<[string, string]> = [
  [
    "src/config/parse-config.ts",
    `import { readText } from "../io/read-text.js";
import type { Config } from "./config-types.js";
import { validate } from "./validate-fields.js";

/** Reads a JSON config file and checks its fields. */
export function parseConfigFile(path: string): Config {
  const text = readText(path);
  const raw = JSON.parse(text) as Partial<Config>;
  if (typeof raw.port !== "number" || !validate(raw.port)) throw new Error("port missing");
  return { port: raw.port, host: raw.host ?? "localhost" };
}
`,
  ],
  ["src/config/config-types.ts", "/** Settings of the server. */\nexport interface Config {\n  port: number;\n  host: string;\n}\n"],
  [
    "src/io/read-text.ts",
    `import { readFileSync } from "node:fs";

/** The UTF-8 text of a file; an empty file is an error. */
export function readText(path: string): string {
  const text = readFileSync(path, "utf8");
  if (text.length === 0) throw new Error("empty file");
  return text;
}
`,
  ],
  [
    "src/app.ts",
    `import { parseConfigFile } from "./config/parse-config.js";

/** Starts the server from its config. */
export function startServer(configPath: string): number {
  const config = parseConfigFile(configPath);
  return config.port;
}
`,
  ],
  [
    "src/billing/invoice.ts",
    `import { validate } from "./validate-amount.js";

/** An invoice with its lines. */
export class Invoice {
  constructor(readonly lines: number[]) {}
  /** The invoice total, taxes included. */
  total(rate: number): number {
    return this.lines.filter(validate).reduce((sum, line) => sum + line, 0) * (1 + rate);
  }
}
`,
  ],
  ["src/config/validate-fields.ts", "/** Rejects negative numbers. */\nexport function validate(value: number): boolean {\n  return value >= 0;\n}\n"],
  ["src/billing/validate-amount.ts", "/** Rejects negative numbers. */\nexport function validate(value: number): boolean {\n  return value >= 0;\n}\n"],
  ["src/billing/tax-rate.ts", "/** The tax rate of a country. */\nexport function taxRate(country: string): number {\n  return country === 'FR' ? 0.2 : 0.1;\n}\n"],
];

describe("code_context_pack", () => {
  let w: TestWorld;
  let fileIds: Record<string, string>;
  const call = (input: unknown, key?: string) =>
    send(w, "/v1/api/actions", { method: "POST", key: key ?? w.keys.viewer, project: w.projectId, json: { action: "code_context_pack", input } });
  const pack = async (input: Record<string, unknown>): Promise<Pack> => {
    const res = await call(input);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { action: string; result: Pack };
    expect(body.action).toBe("code_context_pack");
    return body.result;
  };
  const symbols = (p: Pack) => p.declarations.map((d) => d.symbol);
  const paths = (p: Pack) => [...new Set([...p.declarations.map((d) => d.filepath), ...p.files.map((f) => f.filepath)])];

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { body } = await ingest(w, FILES.map(([p, t]) => fileEntry(p, t)));
    fileIds = Object.fromEntries(body.accepted.map((a) => [a.path, a.fileId]));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("ranks the declarations a task names first, each row with its ids, lines and header only", async () => {
    const p = await pack({ task: "parseConfigFile throws on a config without a port" });
    expect(p.budget).toBe(4096);
    expect(p.declarations[0]).toEqual({
      symbol: "parseConfigFile",
      symbolId: expect.stringMatching(/^sym_/),
      kind: "function",
      fileId: fileIds["src/config/parse-config.ts"],
      filepath: "src/config/parse-config.ts",
      lines: [6, 11],
      body: "export function parseConfigFile(path: string): Config",
    });
    expect(p.files[0]).toEqual({ fileId: fileIds["src/config/parse-config.ts"], filepath: "src/config/parse-config.ts", reason: "match" });
    expect(p.declarations.every((d) => !d.body.includes("JSON.parse"))).toBe(true);
    expect(paths(p).some((f) => f.startsWith("src/billing/"))).toBe(false);
  });

  it("matches split identifiers, doc comments, bodies and paths", async () => {
    expect(symbols(await pack({ task: "the tax rate of a country" }))[0]).toBe("taxRate");
    expect(symbols(await pack({ task: "invoice total with taxes included" }))).toContain("Invoice.total");
    expect(symbols(await pack({ task: "error on an empty file: readFileSync returns nothing" }))[0]).toBe("readText");
    expect(paths(await pack({ task: "something is off in src/billing/tax-rate.ts" }))[0]).toBe("src/billing/tax-rate.ts");
  });

  it("packs to the budget exactly: used is the tiktoken count of the serialized rows and never exceeds it", async () => {
    const enc = get_encoding("o200k_base");
    const task = "parseConfigFile readText startServer Invoice total taxRate config port host";
    const sizes: number[] = [];
    for (const budget of [16, 40, 90, 150, 400, 4096]) {
      const p = await pack({ task, budget });
      expect(p.budget).toBe(budget);
      expect(p.used).toBe(enc.encode(JSON.stringify({ declarations: p.declarations, files: p.files })).length);
      expect(p.used).toBeLessThanOrEqual(budget);
      sizes.push(p.declarations.length + p.files.length);
    }
    expect(sizes[0]).toBe(0);
    expect(sizes.at(-1)!).toBeGreaterThan(sizes[2]!);
    expect([...sizes]).toEqual([...sizes].sort((a, b) => a - b));
    enc.free();
  });

  it("stops where relevance falls off: a precise task gets a short, complete pack", async () => {
    const p = await pack({ task: "taxRate" });
    expect(symbols(p)).toEqual(["taxRate"]);
    // A tenth of the budget: the row and the files list, whose random ids take more or fewer tokens from run to run (200 was crossed).
    expect(p.used).toBeLessThan(p.budget / 10);
    const none = await pack({ task: "kubernetes helm chart" });
    expect(none).toEqual({ budget: 4096, used: 8, declarations: [], files: [] });
  });

  it("seeds steer the ranking toward their neighbours and are never returned nor spent", async () => {
    const task = "validate rejects negative numbers";
    const plain = await pack({ task });
    expect(paths(plain)).toEqual(expect.arrayContaining(["src/config/validate-fields.ts", "src/billing/validate-amount.ts"]));
    const billing = await pack({ task, seedFiles: "src/billing/invoice.ts" });
    expect(billing.declarations[0]!.filepath).toBe("src/billing/validate-amount.ts");
    expect(paths(billing)).not.toContain("src/billing/invoice.ts");
    const config = await pack({ task, seedSymbols: "parseConfigFile" });
    expect(config.declarations[0]!.filepath).toBe("src/config/validate-fields.ts");
    expect(symbols(config)).not.toContain("parseConfigFile");
    const byId = await pack({ task, seedSymbols: config.declarations[0]!.symbolId });
    expect(byId.declarations.map((d) => d.symbolId)).not.toContain(config.declarations[0]!.symbolId);
    const unknown = await pack({ task, seedSymbols: "noSuchThing, sym_nothing", seedFiles: "nowhere.ts" });
    expect(unknown).toEqual(plain);
  });

  it("a seed never lowers its own file: the file of a seed symbol ranks no lower than without the seed", async () => {
    const task = "validate rejects negative numbers";
    const rank = (p: Pack, path: string) => {
      const at = p.files.findIndex((f) => f.filepath === path);
      return at < 0 ? Number.POSITIVE_INFINITY : at;
    };
    for (const [seed, file] of [["parseConfigFile", "src/config/parse-config.ts"], ["validateAmount", "src/billing/validate-amount.ts"], ["startServer", "src/app.ts"]] as const) {
      const plain = await pack({ task });
      const seeded = await pack({ task, seedSymbols: seed });
      expect(rank(seeded, file), seed).toBeLessThanOrEqual(rank(plain, file));
      expect(rank(seeded, file), seed).toBe(0);
    }
  });

  it("names why each file is there: a match, reached through references, or through the seeds' imports", async () => {
    const p = await pack({ task: "startServer" });
    expect(p.declarations[0]!.symbol).toBe("startServer");
    expect(p.files).toContainEqual({ fileId: fileIds["src/app.ts"], filepath: "src/app.ts", reason: "match" });
    expect(p.files).toContainEqual({ fileId: fileIds["src/config/parse-config.ts"], filepath: "src/config/parse-config.ts", reason: "referenced" });
    const open = await pack({ task: "x", seedFiles: "src/config/parse-config.ts" });
    expect(open.declarations).toEqual([]);
    expect(open.files.map((f) => `${f.filepath} ${f.reason}`).sort()).toEqual([
      "src/app.ts imports",
      "src/config/config-types.ts imports",
      "src/config/validate-fields.ts imports",
      "src/io/read-text.ts imports",
    ]);
  });

  it("follows re-reads: renamed declarations are found, removed files are gone", async () => {
    await ingest(w, [fileEntry("src/billing/tax-rate.ts", "/** The VAT rate of a country. */\nexport function vatRate(country: string): number {\n  return 0.2;\n}\n")]);
    await w.app.worker.whenIdle();
    expect(symbols(await pack({ task: "vatRate of a country" }))[0]).toBe("vatRate");
    expect(symbols(await pack({ task: "taxRate" }))).not.toContain("taxRate");
  });

  it("refuses bad input with 400 naming the field, and outsiders with 404", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^invalid input: task: /],
      [{ task: "" }, /^invalid input: task: /],
      [{ task: 5 }, /^invalid input: task: /],
      [{ task: "x".repeat(32_001) }, /^invalid input: task: /],
      [{ task: "x", budget: 7 }, /^invalid input: budget: must be at least 8 tokens/],
      [{ task: "x", budget: 1.5 }, /^invalid input: budget: /],
      [{ task: "x", budget: "100" }, /^invalid input: budget: /],
      [{ task: "x", seedSymbols: ["a"] }, /^invalid input: seedSymbols: /],
      [{ task: "x", seedFiles: Array.from({ length: 201 }, (_, i) => `f${i}.ts`).join(",") }, /^invalid input: seedFiles: at most 200 entries$/],
    ];
    for (const [input, message] of cases) {
      const res = await call(input);
      expect(res.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toMatch(message);
    }
    expect((await call({ task: "config" }, w.keys.outsider)).status).toBe(404);
  });

  it("is an MCP tool whose result is the REST body", async () => {
    const client = await connectMcpClient(w);
    const tool = (await client.listTools()).tools.find((t) => t.name === "code_context_pack")!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(["task", "seedSymbols", "seedFiles", "budget"]);
    expect((tool.inputSchema as { required?: string[] }).required).toEqual(["task"]);
    const input = { task: "parseConfigFile port", seedFiles: "src/app.ts", budget: 300 };
    const mcp = await client.callTool({ name: "code_context_pack", arguments: input });
    expect(mcp.isError).toBeFalsy();
    expect(JSON.stringify(mcp.structuredContent)).toBe(await (await call(input)).text());
    const bad = await client.callTool({ name: "code_context_pack", arguments: { budget: 10 } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toEqual(await (await call({ budget: 10 })).json());
    await client.close();
  });
});

/** A small tree whose shape shows what the pack does beyond the first ranking. */
const MORE_FILES: Array<[string, string]> = [
  // One word in many names: every class has a constructor (taking a `name`), and one long body holds the rarer word.
  ...Array.from({ length: 30 }, (_, i): [string, string] => [
    `src/models/model-${i}.ts`,
    `/** Model number ${i}. */\nexport class Model${i} {\n  constructor(readonly name: string) {}\n  /** The label of model ${i}. */\n  label(): string {\n    return "m${i}";\n  }\n}\n`,
  ]),
  [
    "src/server/dispatch.ts",
    `declare function log(...args: unknown[]): void;

/** Routes a request to its handler and turns failures into responses. */
export function dispatch(handler: () => unknown): unknown {
  try {
    return handler();
  } catch (err) {
    if (err instanceof RangeError) return { status: 400 };
${Array.from({ length: 40 }, (_, i) => `    log("step ${i} of the failure path", handler, err);`).join("\n")}
    throw err;
  }
}
`,
  ],
  // A generated copy of a source file beside it: same declarations, imports rewritten.
  [
    "src/text/slugify.ts",
    `import { lower } from "./lower";\n\n/** A URL slug of a title. */\nexport function slugify(title: string): string {\n  return lower(title).replace(/[^a-z0-9]+/g, "-");\n}\n`,
  ],
  ["src/text/lower.ts", "/** Lower-cases text. */\nexport function lower(text: string): string {\n  return text.toLowerCase();\n}\n"],
  [
    "deno_dist/text/slugify.ts",
    `import { lower } from "./lower.ts";\n\n/** A URL slug of a title. */\nexport function slugify(title: string): string {\n  return lower(title).replace(/[^a-z0-9]+/g, "-");\n}\n`,
  ],
  ["deno_dist/text/lower.ts", "/** Lower-cases text. */\nexport function lower(text: string): string {\n  return text.toLowerCase();\n}\n"],
  // A test of slugify.
  [
    "test/text/slugify.test.ts",
    `import { slugify } from "../../src/text/slugify";\n\nexport function checkSlug(): boolean {\n  return slugify("A B") === "a-b";\n}\n`,
  ],
  // Many relevant declarations: more than any fixed count a pack once had.
  [
    "src/tokens/token-parsers.ts",
    Array.from({ length: 70 }, (_, i) => `/** Token parser for token kind ${i}. */\nexport function parseTokenKind${i}(text: string): number {\n  return text.indexOf("token${i}");\n}\n`).join("\n"),
  ],
];

describe("code_context_pack: diversity, copies, tests and budgets", () => {
  let w: TestWorld;
  const pack = async (input: Record<string, unknown>): Promise<Pack> => {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "code_context_pack", input } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: Pack }).result;
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, MORE_FILES.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("does not let one common word fill the pack: the declaration whose body holds the other term ranks near the top", async () => {
    const p = await pack({ task: "Use `constructor.name` instead of `instanceof` when checking errors", budget: 1200 });
    const names = p.declarations.map((d) => d.symbol);
    expect(names.slice(0, 5)).toContain("dispatch");
    expect(names.filter((n) => n.endsWith(".constructor")).length).toBeLessThan(names.length);
  });

  it("keeps the canonical file of a copied tree and names the copy as its duplicate", async () => {
    const p = await pack({ task: "slugify turns a title into a URL slug" });
    expect(p.declarations[0]).toMatchObject({ symbol: "slugify", filepath: "src/text/slugify.ts" });
    expect(p.declarations.some((d) => d.filepath.startsWith("deno_dist/"))).toBe(false);
    expect(p.files[0]).toMatchObject({ filepath: "src/text/slugify.ts", reason: "match" });
    expect(p.files.filter((f) => f.filepath.startsWith("deno_dist/")).every((f) => f.reason === "duplicate")).toBe(true);
    expect(p.files).toContainEqual(expect.objectContaining({ filepath: "deno_dist/text/slugify.ts", reason: "duplicate", duplicateOf: "src/text/slugify.ts" }));
  });

  it("lists the tests of packed declarations as files with reason test", async () => {
    const p = await pack({ task: "slugify turns a title into a URL slug" });
    expect(p.files).toContainEqual(expect.objectContaining({ filepath: "test/text/slugify.test.ts", reason: "test" }));
    const other = await pack({ task: "dispatch routes a request to its handler" });
    expect(other.files.some((f) => f.reason === "test")).toBe(false);
  });

  it("gives more with a bigger budget while relevance holds, and a bigger budget's declarations hold a smaller one's", async () => {
    const task = "token parser for a token kind";
    const packs = [];
    for (const budget of [1000, 2000, 4096, 8192, 16_384]) packs.push(await pack({ task, budget }));
    for (let i = 1; i < packs.length; i++) {
      const before = packs[i - 1]!.declarations.map((d) => d.symbolId);
      const after = new Set(packs[i]!.declarations.map((d) => d.symbolId));
      expect(after.size, String(packs[i]!.budget)).toBeGreaterThanOrEqual(before.length);
      expect(before.filter((id) => !after.has(id)), String(packs[i]!.budget)).toEqual([]);
    }
    expect(packs[4]!.declarations.length).toBeGreaterThan(packs[2]!.declarations.length);
  });

  it("lets the budget decide how much comes back: more than 40 declarations when they are relevant, a tiny budget kept", async () => {
    const big = await pack({ task: "token parser for a token kind", budget: 30_000 });
    expect(big.declarations.filter((d) => d.symbol.startsWith("parseTokenKind")).length).toBeGreaterThan(40);
    expect(big.used).toBeLessThanOrEqual(30_000);
    const enc = get_encoding("o200k_base");
    for (const budget of [8, 9, 30, 120]) {
      const small = await pack({ task: "token parser for a token kind", budget });
      expect(small.used).toBeLessThanOrEqual(budget);
      expect(small.used).toBe(enc.encode(JSON.stringify({ declarations: small.declarations, files: small.files })).length);
    }
    enc.free();
  });
});
