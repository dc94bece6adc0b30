import fc from "fast-check";
import { get_encoding } from "tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { codeContextPackOutput } from "../../tools/code-context-pack.js";
import type { codeReferencesOutput } from "../../tools/code-references.js";
import { actions } from "../../tools/index.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import type { CellContext } from "../../src/graph/resources.js";
import { upsertArtifact } from "../../src/store/artifacts/artifacts.js";
import { fileEntry, ingest, liveCells } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Pack = z.infer<typeof codeContextPackOutput>;
type References = z.infer<typeof codeReferencesOutput>;
type Entity = { entityId: string; name: string; kind: string };

const NOTES = [
  "# Launch",
  "",
  "The launch moved to March because the billing audit ran late.",
  "",
  "## Audit",
  "",
  "The billing audit covers every invoice issued since January.",
  "Dana Reyes leads the billing audit.",
  "",
].join("\n");

const TALK = [
  "WEBVTT",
  "",
  "00:00:01.000 --> 00:00:04.000",
  "The launch waits for the billing audit to finish.",
  "",
  "00:00:05.500 --> 00:00:09.000",
  "Dana Reyes signed off on the new launch date.",
  "",
].join("\n");

const CONFIG_TS = `/** Settings read at start. */
export interface Settings {
  port: number;
}

/** Reads the service settings from JSON text. */
export function parseConfig(text: string): Settings {
  return JSON.parse(text) as Settings;
}
`;

const LEGACY_TS = `/** The old settings reader, kept for the importer. */
export function parseConfig(raw: string): Record<string, string> {
  return Object.fromEntries(raw.split("\\n").map((line) => line.split("=") as [string, string]));
}
`;

const SPAN_KEYS = ["lineStart", "lineEnd", "pdfPageStart", "pdfPageEnd", "audioStartMs", "videoStartMs"] as const;

function spanOf(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SPAN_KEYS.filter((k) => k in row).map((k) => [k, row[k]]));
}

describe("retrieval answers say where each row comes from", () => {
  let w: TestWorld;
  let fileIds: Record<string, string>;
  const enc = get_encoding("o200k_base");
  const tokens = (text: string) => enc.encode(text).length;
  const call = (action: string, input: Record<string, unknown>, key = w.keys.viewer) =>
    send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action, input } });
  const result = async <T>(action: string, input: Record<string, unknown>): Promise<T> => {
    const res = await call(action, input);
    expect(res.status, JSON.stringify(input)).toBe(200);
    return ((await res.json()) as { result: T }).result;
  };
  const memory = (input: Record<string, unknown>) => result<MemoryQueryAnswer>("memory_query", input);
  const get = async <T>(path: string, key = w.keys.viewer): Promise<{ status: number; body: T }> => {
    const res = await send(w, path, { key });
    return { status: res.status, body: (await res.json()) as T };
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { body } = await ingest(w, [
      fileEntry("docs/notes.md", NOTES),
      fileEntry("media/talk.vtt", TALK),
      fileEntry("src/config.ts", CONFIG_TS),
      fileEntry("legacy/config.ts", LEGACY_TS),
    ]);
    fileIds = Object.fromEntries(body.accepted.map((a) => [a.path, a.fileId]));
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    enc.free();
    await w.close();
  });

  it("every cell of a memory answer carries its fileId, its project path and exactly its faction's span keys", async () => {
    const a = await memory({ query: "When is the launch, and why does the billing audit matter?" });
    const paths = new Set(a.cells.map((c) => c.filepath));
    expect(paths).toContain("docs/notes.md");
    expect(paths).toContain("media/talk.vtt");
    for (const c of a.cells) {
      expect(c.fileId, c.text).toBe(fileIds[c.filepath]);
      const read = await get<CellContext>(`/v1/projects/${w.projectId}/cells/${c.cellId}`);
      expect(read.status).toBe(200);
      expect(read.body.cell.text).toBe(c.text);
      expect(read.body.filepath).toBe(c.filepath);
      expect(spanOf(c), c.text).toEqual(read.body.faction.sourceLocation);
    }
    const md = a.cells.find((c) => c.filepath === "docs/notes.md")!;
    expect(md.lineStart).toBeGreaterThan(0);
    expect(md.lineEnd).toBeGreaterThanOrEqual(md.lineStart!);
    expect(md).not.toHaveProperty("pdfPageStart");
    expect(md).not.toHaveProperty("audioStartMs");
    const cue = a.cells.find((c) => c.text === "The launch waits for the billing audit to finish.")!;
    expect(cue.audioStartMs).toBe(1000);
    expect(cue.videoStartMs).toBe(1000);
    expect(cue).not.toHaveProperty("pdfPageStart");
  });

  it("symbols of one name are told apart by the file declaring them", async () => {
    const a = await memory({ query: "How does parseConfig read settings?" });
    const symbols = a.entities.filter((e) => e.kind === "symbol" && e.name === "parseConfig");
    expect(symbols.map((e) => e.filepath).sort()).toEqual(["legacy/config.ts", "src/config.ts"]);
    for (const e of a.entities.filter((x) => x.kind !== "symbol")) expect(e).not.toHaveProperty("filepath");
  });

  it("entities?q= matches identifiers as written: parseConfig, parse_config and 'parse config' find the same symbols", async () => {
    const names = async (q: string) =>
      (await get<Entity[]>(`/v1/projects/${w.projectId}/entities?q=${encodeURIComponent(q)}`)).body.filter((e) => e.name === "parseConfig");
    const written = await names("parseConfig");
    expect(written.map((e) => e.kind)).toEqual(["symbol", "symbol"]);
    expect((await names("parse_config")).map((e) => e.entityId).sort()).toEqual(written.map((e) => e.entityId).sort());
    expect((await names("parse config")).map((e) => e.entityId).sort()).toEqual(written.map((e) => e.entityId).sort());
    const first = (await get<Entity[]>(`/v1/projects/${w.projectId}/entities?q=parseConfig`)).body[0]!;
    expect(first.name).toBe("parseConfig");
    const prefix = (await get<Entity[]>(`/v1/projects/${w.projectId}/entities?q=parseConf`)).body;
    expect(prefix[0]!.name).toBe("parseConfig");
  });

  describe("fileIds restricts every row kind", () => {
    it("an id that names no file leaves no cells, no entities and no artifacts", async () => {
      await upsertArtifact(w.app.db, {
        artifactId: "art_launchaudit00000000000",
        projectId: w.projectId,
        taskId: "tsk_launchaudit00000000000",
        kind: "report",
        title: "Launch and billing audit",
        purpose: "why the launch moved",
        body: "The launch moved.",
        citations: [(await liveCells(w, fileIds["docs/notes.md"]!))[1]!.cell_id],
        corpusVersion: 1,
        now: new Date().toISOString(),
      });
      const open = await memory({ query: "launch billing audit Dana Reyes" });
      expect(open.cells.length).toBeGreaterThan(0);
      expect(open.entities.length).toBeGreaterThan(0);
      expect(open.artifacts.map((x) => x.title)).toEqual(["Launch and billing audit"]);
      const none = await memory({ query: "launch billing audit Dana Reyes", fileIds: ["fil_unknown"] });
      expect(none).toMatchObject({ cells: [], entities: [], artifacts: [], declarations: [], files: [] });
    });

    it("entities, cells and artifacts all come from the named files", async () => {
      const only = fileIds["src/config.ts"]!;
      const a = await memory({ query: "launch billing audit Dana Reyes parseConfig", fileIds: [only] });
      expect(a.cells.length).toBeGreaterThan(0);
      expect(a.cells.every((c) => c.fileId === only)).toBe(true);
      expect(a.entities.length).toBeGreaterThan(0);
      for (const e of a.entities) {
        const backing = await get<unknown[]>(`/v1/projects/${w.projectId}/cells?entityId=${e.entityId}&fileId=${only}`);
        expect(backing.body.length, e.name).toBeGreaterThan(0);
      }
      expect(a.entities.filter((e) => e.name === "parseConfig").map((e) => e.filepath)).toEqual(["src/config.ts"]);
      expect(a.entities.some((e) => e.name === "Dana Reyes")).toBe(false);
      expect(a.artifacts).toEqual([]);
      const notes = await memory({ query: "launch billing audit", fileIds: [fileIds["docs/notes.md"]] });
      expect(notes.artifacts.map((x) => x.title)).toEqual(["Launch and billing audit"]);
      expect(notes.cells.every((c) => c.filepath === "docs/notes.md")).toBe(true);
    });
  });

  describe("every accepted budget is kept, counted one way", () => {
    const query = "When is the launch, who leads the billing audit, and how does parseConfig read settings?";
    const emptyAnswer = JSON.stringify({ query, cells: [], entities: [], artifacts: [], declarations: [], files: [] });

    it("memory_query: used is the exact count of the rows as answered and never exceeds any budget from the floor to 4096", async () => {
      const floor = tokens(emptyAnswer);
      const below = await call("memory_query", { query, budget: floor - 1 });
      expect(below.status).toBe(400);
      expect(((await below.json()) as { error: { message: string } }).error.message).toBe(
        `invalid input: budget: must be at least ${floor} tokens, what the empty answer already costs`,
      );
      const atFloor = await memory({ query, budget: floor });
      expect(atFloor).toMatchObject({ cells: [], entities: [], artifacts: [], declarations: [], used: floor });
      const full = await memory({ query, budget: 4096 });
      expect(full.cells.length).toBeGreaterThan(3);
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: floor, max: 4096 }), async (budget) => {
          const a = await memory({ query, budget });
          expect(a.budget).toBe(budget);
          expect(a.used).toBe(tokens(JSON.stringify({ query: a.query, cells: a.cells, entities: a.entities, artifacts: a.artifacts, declarations: a.declarations, files: a.files })));
          expect(a.used).toBeLessThanOrEqual(budget);
        }),
        { numRuns: 40 },
      );
    });

    it("code_context_pack: the same rule, from the 8-token floor to 4096", async () => {
      const task = "parseConfig reads Settings from JSON text; the legacy parseConfig splits lines";
      const below = await call("code_context_pack", { task, budget: 7 });
      expect(below.status).toBe(400);
      expect(((await below.json()) as { error: { message: string } }).error.message).toBe(
        "invalid input: budget: must be at least 8 tokens, what the empty answer already costs",
      );
      expect(tokens(JSON.stringify({ declarations: [], files: [] }))).toBe(8);
      expect(await result<Pack>("code_context_pack", { task, budget: 8 })).toMatchObject({ used: 8, declarations: [], files: [] });
      for (const budget of [1, 5]) expect((await call("code_context_pack", { task, budget })).status, String(budget)).toBe(400);
      for (const budget of [10, 20, 40, 80]) {
        const p = await result<Pack>("code_context_pack", { task, budget });
        expect(p.used, String(budget)).toBe(tokens(JSON.stringify({ declarations: p.declarations, files: p.files })));
        expect(p.used, String(budget)).toBeLessThanOrEqual(budget);
      }
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 8, max: 4096 }), async (budget) => {
          const p = await result<Pack>("code_context_pack", { task, budget });
          expect(p.used).toBe(tokens(JSON.stringify({ declarations: p.declarations, files: p.files })));
          expect(p.used).toBeLessThanOrEqual(budget);
        }),
        { numRuns: 40 },
      );
    });
  });

  describe("one cell by id", () => {
    it("answers the cell, its faction, its file's path and its neighbours in reading order", async () => {
      const cells = await liveCells(w, fileIds["docs/notes.md"]!);
      expect(cells.length).toBeGreaterThan(2);
      for (const [i, c] of cells.entries()) {
        const { status, body } = await get<CellContext>(`/v1/projects/${w.projectId}/cells/${c.cell_id}`);
        expect(status).toBe(200);
        expect(body.cell).toMatchObject({ cellId: c.cell_id, text: c.text, factionId: c.faction_id, fileIds: [fileIds["docs/notes.md"]], projectId: w.projectId });
        expect(body.faction.factionId).toBe(c.faction_id);
        expect(body.faction.sourceLocation.lineStart).toBeGreaterThan(0);
        expect(body.filepath).toBe("docs/notes.md");
        expect(body.neighbours.previous?.cellId ?? null).toBe(i > 0 ? cells[i - 1]!.cell_id : null);
        expect(body.neighbours.next?.cellId ?? null).toBe(i < cells.length - 1 ? cells[i + 1]!.cell_id : null);
      }
      const dana = cells.find((c) => c.text.startsWith("Dana Reyes"))!;
      const read = await get<CellContext>(`/v1/projects/${w.projectId}/cells/${dana.cell_id}`);
      expect(read.body.cell.entityIds.length).toBeGreaterThan(0);
    });

    it("404 cell not found for an unknown id, a retired cell, or a cell of a project the read does not cover", async () => {
      const missing = await get(`/v1/projects/${w.projectId}/cells/cel_unknown`);
      expect(missing).toEqual({ status: 404, body: { error: { status: 404, code: "cell_not_found", message: "cell not found" } } });

      const { body } = await ingest(w, [fileEntry("docs/old.md", "The old rollout plan used a nightly batch.\n")]);
      await w.app.worker.whenIdle();
      const oldId = body.accepted[0]!.fileId;
      const old = (await liveCells(w, oldId))[0]!.cell_id;
      expect((await get(`/v1/projects/${w.projectId}/cells/${old}`)).status).toBe(200);
      await ingest(w, [fileEntry("docs/old.md", "The new rollout plan streams every change.\n")]);
      await w.app.worker.whenIdle();
      expect((await get(`/v1/projects/${w.projectId}/cells/${old}`)).body).toEqual(missing.body);

      const elsewhere = await send(w, `/v1/projects/${w.otherProjectId}/ingest`, {
        method: "POST",
        key: w.keys.outsider,
        json: { files: [fileEntry("other.md", "Another project keeps its own notes.\n")] },
      });
      const otherFile = ((await elsewhere.json()) as { accepted: Array<{ fileId: string }> }).accepted[0]!.fileId;
      await w.app.worker.whenIdle();
      const foreign = (await liveCells(w, otherFile))[0]!.cell_id;
      expect((await get(`/v1/projects/${w.otherProjectId}/cells/${foreign}`, w.keys.outsider)).status).toBe(200);
      expect((await get(`/v1/projects/${w.projectId}/cells/${foreign}`)).body).toEqual(missing.body);
    });
  });
});

describe("retrieval while the project is reading", () => {
  let w: TestWorld;
  const result = async <T>(action: string, input: Record<string, unknown>): Promise<T> => {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action, input } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: T }).result;
  };
  const all = () =>
    Promise.all([
      result<MemoryQueryAnswer>("memory_query", { query: "billing audit" }),
      result<Record<string, unknown>>("memory_query", {}),
      result<Pack>("code_context_pack", { task: "parseConfig settings" }),
      result<References>("code_references", { query: "parse" }),
    ]);

  beforeAll(async () => {
    w = await createTestWorld({ actions, startWorker: false, env: { PKS_RATE_LIMIT: "100000" } });
  });
  afterAll(async () => w.close());

  it("carries indexing {ready, total} while files are queued, and drops it once reading is idle", async () => {
    for (const answer of await all()) expect(answer).not.toHaveProperty("indexing");
    await ingest(w, [fileEntry("docs/notes.md", NOTES), fileEntry("src/config.ts", CONFIG_TS), fileEntry("legacy/config.ts", LEGACY_TS)]);
    const lease = (await (await send(w, `/v1/projects/${w.projectId}/ingest`, { key: w.keys.viewer })).json()) as { state: string; files: Record<string, number> };
    expect(lease).toMatchObject({ state: "reading", files: { queued: 3, reading: 0, ready: 0, failed: 0 } });
    for (const answer of await all()) expect(answer.indexing).toEqual({ ready: 0, total: 3 });

    await w.app.worker.start();
    await w.app.worker.whenIdle();
    const [memory, list, pack, references] = await all();
    for (const answer of [memory, list, pack, references]) expect(answer).not.toHaveProperty("indexing");
    expect(memory.cells.length).toBeGreaterThan(0);
    expect(pack.declarations.length).toBeGreaterThan(0);
    expect(references.references.length).toBeGreaterThan(0);

    await w.app.worker.stop();
    await ingest(w, [fileEntry("docs/more.md", "The billing audit found two late invoices.\n")]);
    const during = await all();
    for (const answer of during) expect(answer.indexing).toEqual({ ready: 3, total: 4 });
  });
});
