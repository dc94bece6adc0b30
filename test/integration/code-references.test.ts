import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CodeReferenceItem } from "../../src/graph/resources.js";
import { actions } from "../../tools/index.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Row = CodeReferenceItem;

const ALPHA = `export const alpha = 1;
export const Alphabet = "abc";
export const ALPHA_MAX = alpha + 1;
export function getAlpha(): number {
  return alpha;
}
export const beta_alpha = getAlpha();
export const zeta = 0;
`;

async function dispatch(w: TestWorld, input: Record<string, unknown>, key = w.keys.viewer) {
  return send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action: "code_references", input } });
}

async function references(w: TestWorld, input: Record<string, unknown>): Promise<Row[]> {
  const res = await dispatch(w, input);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { action: string; result: { references: Row[] } };
  expect(body.action).toBe("code_references");
  return body.result.references;
}

async function ingestAndRead(w: TestWorld, files: unknown[]): Promise<void> {
  const { res } = await ingest(w, files);
  expect(res.status).toBe(200);
  await w.app.worker.whenIdle();
}

const brief = (rows: Row[]) => rows.map((r) => `${r.symbol} ${r.kind} ${r.filepath}:${r.lines[0]}`);

describe("code_references", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  it("lists prefix matches, then substring matches, each alphabetical, declarations first", async () => {
    await ingestAndRead(w, [fileEntry("src/alpha.ts", ALPHA)]);
    const rows = await references(w, { query: "alpha" });
    expect(brief(rows)).toEqual([
      "alpha declaration src/alpha.ts:1",
      "alpha usage src/alpha.ts:3",
      "alpha usage src/alpha.ts:5",
      "ALPHA_MAX declaration src/alpha.ts:3",
      "Alphabet declaration src/alpha.ts:2",
      "beta_alpha declaration src/alpha.ts:7",
      "getAlpha declaration src/alpha.ts:4",
      "getAlpha usage src/alpha.ts:7",
    ]);
    expect(rows[0]).toEqual({
      symbol: "alpha",
      kind: "declaration",
      filepath: "src/alpha.ts",
      fileId: expect.stringMatching(/^fil_/),
      lines: [1, 1],
      symbolId: expect.stringMatching(/^sym_/),
      label: "alpha",
      sublabel: "src/alpha.ts",
      ambiguous: false,
    });
    expect(rows[1]!.symbolId).toBe(rows[0]!.symbolId);
    expect(rows.find((r) => r.symbol === "getAlpha")!.lines).toEqual([4, 6]);
    expect(await references(w, { query: "ALPHA" })).toEqual(rows);
    expect(brief(await references(w, { query: "alpha", limit: 3 }))).toEqual(brief(rows).slice(0, 3));
    expect(await references(w, { query: "nothing-like-it" })).toEqual([]);
  });

  it("an empty query pages everything alphabetically; limit defaults to 50 and is 1..200, as its schema says", async () => {
    const many = Array.from({ length: 260 }, (_, i) => `export const v${String(i).padStart(3, "0")} = ${i};`).join("\n");
    await ingestAndRead(w, [fileEntry("src/alpha.ts", ALPHA), fileEntry("src/many.ts", many)]);
    const first = await references(w, {});
    expect(first).toHaveLength(50);
    expect(brief(first.slice(0, 3))).toEqual(["alpha declaration src/alpha.ts:1", "alpha usage src/alpha.ts:3", "alpha usage src/alpha.ts:5"]);
    const folded = first.map((r) => r.symbol.toLowerCase());
    expect(folded).toEqual([...folded].sort());
    expect(await references(w, { query: "" })).toEqual(first);
    expect(await references(w, { query: "v", limit: 200 })).toHaveLength(200);
    expect(await references(w, { query: "v", limit: 1 })).toHaveLength(1);
    for (const [limit, why] of [[1000, "at most 200"], [0, "at least 1"]] as const) {
      const refused = await dispatch(w, { query: "v", limit });
      expect(`${refused.status} ${await refused.text()}`).toBe(`400 {"error":{"status":400,"code":"invalid_input","message":"invalid input: limit: ${why}"}}`);
    }
    expect((await references(w, { query: "v", limit: 7 })).map((r) => r.symbol)).toEqual(["v000", "v001", "v002", "v003", "v004", "v005", "v006"]);
  });

  it("resolves usages through imports, else by name, marks ambiguity, and follows files read later", async () => {
    await ingestAndRead(w, [
      fileEntry("src/util.ts", "export function helper(): void {}\nexport function shared(): void {}\n"),
      fileEntry("src/other.ts", "export function helper(): void {}\nexport function shared(): void {}\n"),
      fileEntry("src/decoy.ts", "export function late(): void {}\n"),
      fileEntry("src/fmt.ts", "export function helperOfFmt(): void {}\nexport default function format(): void {}\n"),
      fileEntry(
        "src/app.ts",
        'import { helper } from "./util.js";\nimport { late } from "./late/index.js";\nimport { readFile } from "node:fs";\nimport fmt from "./fmt.js";\nhelper();\nshared();\nreadFile("x");\nlonely();\nlate();\nfmt();\n',
      ),
    ]);
    const usage = async (name: string) => (await references(w, { query: name })).find((r) => r.symbol === name && r.kind === "usage" && r.lines[0] > 4)!;
    const declared = async (name: string, path: string) =>
      (await references(w, { query: name })).find((r) => r.symbol === name && r.kind === "declaration" && r.filepath === path)!.symbolId;

    expect(await usage("helper")).toMatchObject({ symbolId: await declared("helper", "src/util.ts"), ambiguous: false });
    expect(await usage("shared")).toMatchObject({ symbolId: null, ambiguous: true });
    expect(await usage("readFile")).toMatchObject({ symbolId: null, ambiguous: false });
    expect(await usage("lonely")).toMatchObject({ symbolId: null, ambiguous: false });
    expect(await usage("fmt")).toMatchObject({ symbolId: await declared("format", "src/fmt.ts"), ambiguous: false });
    // The import's own file is not read yet: the name is looked up across the project meanwhile.
    expect(await usage("late")).toMatchObject({ symbolId: await declared("late", "src/decoy.ts"), ambiguous: false });

    await ingestAndRead(w, [fileEntry("src/lonely.ts", "export function lonely(): void {}\n"), fileEntry("src/late/index.ts", "export function late(): void {}\n")]);
    expect(await usage("lonely")).toMatchObject({ symbolId: await declared("lonely", "src/lonely.ts"), ambiguous: false });
    expect(await usage("late")).toMatchObject({ symbolId: await declared("late", "src/late/index.ts"), ambiguous: false });
  });

  it("resolves Python imports, relative and absolute", async () => {
    await ingestAndRead(w, [
      fileEntry("pkg/models.py", "class User:\n    pass\n"),
      fileEntry("pkg/legacy.py", "class User:\n    pass\n"),
      fileEntry("pkg/app.py", "from .models import User\n\nUser()\n"),
      fileEntry("tools/run.py", "from pkg.legacy import User\nimport os\n\nUser()\nos.getcwd()\n"),
    ]);
    const rows = await references(w, { query: "User" });
    const decl = (path: string) => rows.find((r) => r.kind === "declaration" && r.filepath === path)!.symbolId;
    const use = (path: string) => rows.find((r) => r.kind === "usage" && r.filepath === path && r.lines[0] > 1)!;
    expect(use("pkg/app.py")).toMatchObject({ symbolId: decl("pkg/models.py"), ambiguous: false });
    expect(use("tools/run.py")).toMatchObject({ symbolId: decl("pkg/legacy.py"), ambiguous: false });
  });

  it("refuses bad input with 400 and callers outside the project with 404", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ limit: "10" }, /^invalid input: limit: /],
      [{ limit: 1.5 }, /^invalid input: limit: limit must be an integer$/],
      [{ query: 5 }, /^invalid input: query: /],
      [{ query: "x".repeat(257) }, /^invalid input: query: /],
    ];
    for (const [input, message] of cases) {
      const res = await dispatch(w, input);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.message).toMatch(message);
    }
    const outsider = await dispatch(w, {}, w.keys.outsider);
    expect(outsider.status).toBe(404);
  });

  it("is an MCP tool whose result is the REST body", async () => {
    await ingestAndRead(w, [fileEntry("src/alpha.ts", ALPHA)]);
    const client = await connectMcpClient(w);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "code_references")!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(["query", "limit"]);
    expect((tool.inputSchema as unknown as { properties: { limit: object } }).properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 200 });
    const mcp = await client.callTool({ name: "code_references", arguments: { query: "get" } });
    const rest = await dispatch(w, { query: "get" });
    expect(mcp.isError).toBeFalsy();
    expect(JSON.stringify(mcp.structuredContent)).toBe(await rest.text());
    const bad = await client.callTool({ name: "code_references", arguments: { limit: "x" } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toEqual(await (await dispatch(w, { limit: "x" })).json());
    await client.close();
  });
});
