import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Entity } from "../../src/graph/resources.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";


const CODE = `/** Reads the configuration file. */
export function parseConfig(path: string): Config {
  return JSON.parse(path);
}
`;

const DOC = `# Configuration

Call \`parseConfig\` with the path of the file. The Model Context Protocol (MCP) defines how clients talk to servers.

## Rate limits

Rate limits protect the service. The spec is maintained by the Linux Foundation.
`;

const OTHER = `# Notes

MCP clients retry after a rate limit.

## Rate Limit

Limits reset every minute.
`;

describe("entities from documents", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  const entities = async () =>
    (await (await send(w, `/v1/projects/${w.projectId}/entities?limit=200`, { key: w.keys.viewer })).json()) as Entity[];
  const cellsOf = async (entityId: string) =>
    ((await (await send(w, `/v1/projects/${w.projectId}/cells?entityId=${entityId}`, { key: w.keys.viewer })).json()) as Array<{ text: string }>).map((c) => c.text);

  it("a Markdown file that mentions parseConfig links to the code symbol parseConfig", async () => {
    await ingest(w, [fileEntry("src/config.ts", CODE), fileEntry("docs/config.md", DOC)]);
    await w.app.worker.whenIdle();
    const symbol = (await entities()).find((e) => e.kind === "symbol" && e.name === "parseConfig")!;
    expect(symbol).toBeDefined();
    const texts = await cellsOf(symbol.entityId);
    expect(texts.some((t) => t.startsWith("Call parseConfig"))).toBe(true);
    expect(texts.some((t) => t.startsWith("function parseConfig"))).toBe(true);
  });

  it("links the mention when the code is read after the document", async () => {
    await ingest(w, [fileEntry("docs/config.md", DOC)]);
    await w.app.worker.whenIdle();
    await ingest(w, [fileEntry("src/config.ts", CODE)]);
    await w.app.worker.whenIdle();
    const symbol = (await entities()).find((e) => e.kind === "symbol" && e.name === "parseConfig")!;
    expect((await cellsOf(symbol.entityId)).some((t) => t.startsWith("Call parseConfig"))).toBe(true);
  });

  it("merges case, plural and alias variants across files into one entity", async () => {
    await ingest(w, [fileEntry("docs/config.md", DOC), fileEntry("docs/notes.md", OTHER)]);
    await w.app.worker.whenIdle();
    const all = await entities();
    const mcp = all.filter((e) => /model context protocol|^mcp$/i.test(e.name));
    expect(mcp).toHaveLength(1);
    const mcpCells = await cellsOf(mcp[0]!.entityId);
    expect(mcpCells.some((t) => t.includes("MCP clients retry"))).toBe(true);
    const limits = all.filter((e) => /^rate limits?$/i.test(e.name));
    expect(limits).toHaveLength(1);
    expect(limits[0]!.cellCount).toBe(2);
    expect(all.find((e) => e.name === "Linux Foundation")?.kind).toBe("organization");
  });

  it("re-reading a document replaces its links; entities no cell backs disappear", async () => {
    const { body } = await ingest(w, [fileEntry("docs/notes.md", OTHER)]);
    await w.app.worker.whenIdle();
    expect((await entities()).some((e) => /^mcp$/i.test(e.name))).toBe(true);
    await ingest(w, [fileEntry("docs/notes.md", "# Notes\n\nNothing named here.\n")]);
    await w.app.worker.whenIdle();
    expect((await entities()).some((e) => /^mcp$/i.test(e.name))).toBe(false);
    expect(body.accepted).toHaveLength(1);
  });
  it("links a mention to the symbols its name names only while they are at most three, read before or after the code", async () => {
    const save = "export function saveThing(): number {\n  return 1;\n}\n";
    // Four symbols named loadThing, written in one reading: never three or fewer.
    const load = ["export function loadThing(): number {\n  return 1;\n}\n", ..."ABC"].map((c) => (c.length > 1 ? c : `export class ${c} {\n  loadThing(): number {\n    return 2;\n  }\n}\n`));
    const doc = (title: string) => `# ${title}\n\nCall \`saveThing\` and then \`loadThing\` to keep it.\n`;
    await ingest(w, [fileEntry("docs/before.md", doc("Before"))]);
    await w.app.worker.whenIdle();
    await ingest(w, [fileEntry("src/load.ts", load.join("\n")), ...[1, 2, 3].map((i) => fileEntry(`src/save${i}.ts`, save))]);
    await w.app.worker.whenIdle();
    await ingest(w, [fileEntry("docs/after.md", doc("After"))]);
    await w.app.worker.whenIdle();
    const symbols = (await entities()).filter((e) => e.kind === "symbol");
    const saves = symbols.filter((e) => e.name === "saveThing");
    const loads = symbols.filter((e) => e.name === "loadThing" || e.name.endsWith(".loadThing"));
    expect(saves).toHaveLength(3);
    expect(loads).toHaveLength(4);
    for (const e of saves) {
      const texts = await cellsOf(e.entityId);
      expect(texts.filter((t) => t.startsWith("Call saveThing"))).toHaveLength(2);
    }
    for (const e of loads) expect((await cellsOf(e.entityId)).some((t) => t.startsWith("Call saveThing"))).toBe(false);
  });
});
