/**
 * Every language answers through the real pipeline: a file in each grammar
 * added for Kotlin, Scala, Swift, Haskell, Elixir, Lua and Zig is ingested,
 * read by the reader threads, and its declarations are found by
 * `code_references` and `code_context_pack`; a file in a language with no
 * grammar, or with an extension nothing knows, answers a word in it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { CodeReferenceItem } from "../../src/graph/resources.js";
import type { codeContextPackOutput } from "../../tools/code-context-pack.js";
import type { MemoryQueryAnswer } from "../../tools/memory-query.js";
import { actions } from "../../tools/index.js";
import { readFixture } from "../support/code-fixtures.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Pack = z.infer<typeof codeContextPackOutput>;

/** Path in the project, fixture, a declaration in it with its kind, and a task naming it. */
const CASES: Array<{ path: string; fixture: string; symbol: string; kind: string; task: string }> = [
  { path: "lib/Shelf.kt", fixture: "sample.kt", symbol: "Shelf", kind: "class", task: "where does the Shelf lend books" },
  { path: "orchard/FruitTree.scala", fixture: "sample.scala", symbol: "harvest", kind: "method", task: "harvest the FruitTree" },
  { path: "Sources/Station.swift", fixture: "sample.swift", symbol: "Station", kind: "class", task: "Station records a reading" },
  { path: "src/Garden/Beds.hs", fixture: "sample.hs", symbol: "inventory", kind: "function", task: "inventory of beds" },
  { path: "lib/kitchen/oven.ex", fixture: "sample.ex", symbol: "bake", kind: "function", task: "bake trays in the Oven" },
  { path: "lua/scheduler.lua", fixture: "sample.lua", symbol: "submit", kind: "method", task: "submit a job to the Scheduler" },
  { path: "src/counter.zig", fixture: "sample.zig", symbol: "Counter", kind: "struct", task: "Counter hands out tickets" },
];

/** Files no grammar reads: COBOL, and an extension nothing knows. */
const UNKNOWN: Array<{ path: string; text: string; word: string }> = [
  {
    path: "batch/PAYROLL.cbl",
    text: "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PAYROLL.\n       PROCEDURE DIVISION.\n           DISPLAY 'Computing overtimepremium for each clerk'.\n           STOP RUN.\n",
    word: "overtimepremium",
  },
  { path: "rules/routing.qqz", text: "route parcels through the zanzibarhub when the weight exceeds nine kilos\n", word: "zanzibarhub" },
];

describe("every language answers a declaration query", () => {
  let w: TestWorld;
  const action = async <T>(name: string, input: Record<string, unknown>): Promise<T> => {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: name, input } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: T }).result;
  };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const files = [...CASES.map((c) => fileEntry(c.path, readFixture(c.fixture))), ...UNKNOWN.map((u) => fileEntry(u.path, u.text))];
    const { res } = await ingest(w, files);
    expect(res.status).toBe(200);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it.each(CASES)("$path: code_references finds the $kind $symbol", async ({ path, symbol, kind }) => {
    const { references } = await action<{ references: CodeReferenceItem[] }>("code_references", { query: symbol });
    const declaration = references.find((r) => r.symbol === symbol && r.kind === "declaration" && r.filepath === path);
    expect(declaration, JSON.stringify(references.slice(0, 5))).toBeDefined();
    const declared = await w.app.deps.db.get<{ kind: string }>("SELECT kind FROM symbols WHERE symbol_id = ?", [declaration!.symbolId]);
    expect(declared?.kind).toBe(kind);
  });

  it.each(CASES)("$path: code_context_pack puts $symbol in its rows and the file in its list", async ({ path, symbol, task }) => {
    const pack = await action<Pack>("code_context_pack", { task });
    // Pack rows name a declaration by its qualified name (`Scheduler.submit`).
    const rows = pack.declarations.filter((d) => d.filepath === path).map((d) => d.symbol.split(".").pop());
    expect(rows).toContain(symbol);
    expect(pack.files.map((f) => f.filepath)).toContain(path);
  });

  it.each(UNKNOWN)("$path, in no language with a grammar, answers memory_query for $word", async ({ path, word }) => {
    const answer = await action<MemoryQueryAnswer>("memory_query", { query: word });
    const cell = answer.cells.find((c) => c.filepath === path);
    expect(cell?.text).toContain(word);
    expect(cell?.lineStart).toBe(1);
  });
});
