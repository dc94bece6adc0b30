import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { retirePaths } from "../../src/ingest/accept/ingest-batch.js";
import { actions } from "../../tools/index.js";
import { chunkIdOf } from "../../src/store/files/chunks.js";
import { declarationTexts } from "../../src/store/search/declaration-search.js";
import { fileEntry, ingest, liveCells, liveFactions } from "../support/ingest-helpers.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const GREET = `import { format } from "./format.js";

/** How loud a greeting is. */
export type Volume = "soft" | "loud";

/**
 * Builds greetings.
 */
export class Greeter {
  private count = 0;

  /** Returns a greeting. */
  greet(name: string): string {
    this.count += 1;
    return format(\`Hello, \${name}\`);
  }

  reset(): void {
    this.count = 0;
  }
}

export function farewell(name: string): string {
  return format(\`Bye, \${name}\`);
}
`;

const FORMAT = `/** Trims a message. */
export function format(message: string): string {
  return message.trim();
}
`;

interface SymbolRow {
  symbol_id: string;
  name: string;
  qualified_name: string;
  kind: string;
  line_start: number;
  line_end: number;
  signature: string;
  doc: string | null;
  faction_id: string | null;
  cell_id: string | null;
  entity_id: string | null;
  retired_at: string | null;
}

function symbols(w: TestWorld, fileId: string) {
  return w.app.deps.db.all<SymbolRow>("SELECT * FROM symbols WHERE file_id = ? ORDER BY line_start, symbol_id", [fileId]);
}

function byName(rows: SymbolRow[]): Record<string, SymbolRow> {
  return Object.fromEntries(rows.map((r) => [r.qualified_name, r]));
}

async function ingestAndRead(w: TestWorld, files: unknown[]) {
  const { res, body } = await ingest(w, files);
  expect(res.status).toBe(200);
  await w.app.worker.whenIdle();
  return Object.fromEntries(body.accepted.map((a) => [a.path, a.fileId]));
}

describe("code ingestion", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  it("a code unit that is exactly its lines is stored as them: read back after an edit moves it and after a version in another encoding; the bytes read stay until the next reading", async () => {
    const v1 = "export function one(): number {\n  return 1;\n}\n\nexport function two(): number {\n  return 2;\n}\n";
    const two = "export function two(): number {\n  return 2;\n}";
    const fileId = (await ingestAndRead(w, [fileEntry("src/n.ts", v1)]))["src/n.ts"]!;
    const textOf = async (name: string) => {
      const s = byName(await symbols(w, fileId))[name]!;
      return (await declarationTexts(w.app.deps.db, [w.projectId], [s.symbol_id])).get(s.symbol_id);
    };
    const chunkCount = async (bytes: string | Uint8Array) =>
      Number((await w.app.deps.db.get<{ n: number }>("SELECT count(*) AS n FROM chunks WHERE chunk_id = ?", [chunkIdOf(Buffer.from(bytes))]))!.n);
    const before = (await liveFactions(w, fileId)).find((f) => f.line_start === 5)!;
    expect(before).toMatchObject({ text: "", text_at_lines: 1 });
    expect(await textOf("two")).toBe(two);

    // Moved down by an edit above it: the same faction, its lines moved, its text still read from them; the old bytes go.
    const v2 = `// moved\n\n${v1}`;
    await ingestAndRead(w, [fileEntry("src/n.ts", v2)]);
    expect((await liveFactions(w, fileId)).find((f) => f.faction_id === before.faction_id)).toMatchObject({ line_start: 7, text: "", text_at_lines: 1 });
    expect(await textOf("two")).toBe(two);
    expect([await chunkCount(v1), await chunkCount(v2)]).toEqual([0, 1]);

    // The same code in UTF-16 (not lines of the bytes as UTF-8): the faction is kept and its text is stored in the row.
    const v3 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(v2, "utf16le")]);
    await ingestAndRead(w, [fileEntry("src/n.ts", v3)]);
    expect((await liveFactions(w, fileId)).find((f) => f.faction_id === before.faction_id)).toMatchObject({ text: two, text_at_lines: 0 });
    expect(await textOf("two")).toBe(two);
    expect([await chunkCount(v2), await chunkCount(v3)]).toEqual([0, 1]);
  });

  it("reads a code file into code_unit factions, declaration cells, symbols, entities and links", async () => {
    const ids = await ingestAndRead(w, [fileEntry("src/greet.ts", GREET)]);
    const fileId = ids["src/greet.ts"]!;
    const factions = await liveFactions(w, fileId);
    expect(factions.every((f) => f.faction_type === "code_unit")).toBe(true);
    expect(factions.map((f) => [f.line_start, f.line_end])).toEqual([[1, 1], [3, 4], [6, 21], [10, 10], [12, 16], [18, 20], [23, 25]]);
    // A class's faction holds its header and closing line; members hold their own lines.
    expect(factions[2]!.text).toBe("/**\n * Builds greetings.\n */\nexport class Greeter {\n}");
    // A unit that is exactly its lines is stored as those lines of the bytes read, and read back from them.
    expect(factions[4]).toMatchObject({ text: "", text_at_lines: 1 });
    expect(factions[2]).toMatchObject({ text_at_lines: 0 });
    const method = byName(await symbols(w, fileId))["Greeter.greet"]!;
    const texts = await declarationTexts(w.app.deps.db, [w.projectId], [method.symbol_id]);
    expect(texts.get(method.symbol_id)).toContain("/** Returns a greeting. */\n  greet(name: string): string {");

    const cells = await liveCells(w, fileId);
    expect(cells.map((c) => c.text)).toEqual([
      'type Volume — export type Volume = "soft" | "loud" — src/greet.ts — How loud a greeting is.',
      "class Greeter — export class Greeter — src/greet.ts — Builds greetings.",
      "property Greeter.count — private count = 0 — src/greet.ts",
      "method Greeter.greet — greet(name: string): string — src/greet.ts — Returns a greeting.",
      "method Greeter.reset — reset(): void — src/greet.ts",
      "function farewell — export function farewell(name: string): string — src/greet.ts",
    ]);

    const rows = byName(await symbols(w, fileId));
    const greet = rows["Greeter.greet"]!;
    expect(greet).toMatchObject({ name: "greet", kind: "method", line_start: 13, line_end: 16, signature: "greet(name: string): string", doc: "Returns a greeting.", retired_at: null });
    expect(greet.symbol_id).toMatch(/^sym_/);
    expect(greet.faction_id).toBe(factions[4]!.faction_id);
    expect(greet.cell_id).toBe(cells[3]!.cell_id);

    const entities = await w.app.deps.db.all<{ entity_id: string; kind: string; name: string; norm_name: string; source_key: string }>(
      "SELECT entity_id, kind, name, norm_name, source_key FROM entities WHERE project_id = ? ORDER BY kind, name",
      [w.projectId],
    );
    expect(entities.filter((e) => e.kind !== "symbol").map((e) => [e.kind, e.name, e.source_key])).toEqual([
      ["file", "src/greet.ts", fileId],
      ["module", "src", "src"],
    ]);
    const symbolEntity = entities.find((e) => e.kind === "symbol" && e.source_key === greet.symbol_id)!;
    expect(symbolEntity).toMatchObject({ name: "Greeter.greet", norm_name: "greeter greet" });
    expect(greet.entity_id).toBe(symbolEntity.entity_id);
    const links = await w.app.deps.db.all<{ kind: string }>(
      "SELECT e.kind FROM cell_entities ce JOIN entities e ON e.rowid = ce.entity_rowid WHERE ce.cell_rowid = (SELECT rowid FROM cells WHERE cell_id = ?) ORDER BY e.kind",
      [greet.cell_id],
    );
    expect(links.map((l) => l.kind)).toEqual(["file", "module", "symbol"]);
  });

  it("an edit inside one method keeps every other declaration's symbolId, faction and cell", async () => {
    const ids = await ingestAndRead(w, [fileEntry("src/greet.ts", GREET)]);
    const fileId = ids["src/greet.ts"]!;
    const before = byName(await symbols(w, fileId));
    const factionsBefore = new Set((await liveFactions(w, fileId)).map((f) => f.faction_id));

    // Two more lines inside greet(): everything after it moves down.
    const edited = GREET.replace("    this.count += 1;\n", "    this.count += 1;\n    this.count *= 1;\n    this.count -= 0;\n");
    await ingestAndRead(w, [fileEntry("src/greet.ts", edited)]);
    const after = byName(await symbols(w, fileId));

    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [name, row] of Object.entries(after)) {
      expect(row.symbol_id, name).toBe(before[name]!.symbol_id);
      expect(row.retired_at, name).toBeNull();
      if (name === "Greeter.greet") continue;
      expect(row.faction_id, name).toBe(before[name]!.faction_id);
      expect(row.cell_id, name).toBe(before[name]!.cell_id);
    }
    expect(after["Greeter.greet"]!.faction_id).not.toBe(before["Greeter.greet"]!.faction_id);
    expect(after["Greeter.reset"]!.line_start).toBe(before["Greeter.reset"]!.line_start + 2);
    expect(after["farewell"]!.line_end).toBe(before["farewell"]!.line_end + 2);
    const factionsAfter = await liveFactions(w, fileId);
    expect(factionsAfter.filter((f) => !factionsBefore.has(f.faction_id))).toHaveLength(1);
  });

  it("a deleted declaration's symbol is retired, and comes back with the same id", async () => {
    const ids = await ingestAndRead(w, [fileEntry("src/greet.ts", GREET)]);
    const fileId = ids["src/greet.ts"]!;
    const before = byName(await symbols(w, fileId));
    const withoutReset = GREET.replace("\n  reset(): void {\n    this.count = 0;\n  }\n", "");
    await ingestAndRead(w, [fileEntry("src/greet.ts", withoutReset)]);
    const gone = byName(await symbols(w, fileId));
    expect(gone["Greeter.reset"]!.retired_at).not.toBeNull();
    expect(gone["Greeter.greet"]!.retired_at).toBeNull();
    const cell = await w.app.deps.db.get<{ retired_at: string | null }>("SELECT retired_at FROM cells WHERE cell_id = ?", [before["Greeter.reset"]!.cell_id]);
    expect(cell?.retired_at).not.toBeNull();

    await ingestAndRead(w, [fileEntry("src/greet.ts", GREET)]);
    const back = byName(await symbols(w, fileId));
    expect(back["Greeter.reset"]).toMatchObject({ symbol_id: before["Greeter.reset"]!.symbol_id, retired_at: null, entity_id: before["Greeter.reset"]!.entity_id });
  });

  it("retiring a file retires its symbols and drops its references and imports", async () => {
    const ids = await ingestAndRead(w, [fileEntry("src/greet.ts", GREET), fileEntry("src/format.ts", FORMAT)]);
    expect(await retirePaths({ projectId: w.projectId }, ["src/greet.ts"], w.app.tools)).toBe(1);
    const fileId = ids["src/greet.ts"]!;
    expect((await symbols(w, fileId)).every((s) => s.retired_at !== null)).toBe(true);
    const counts = await w.app.deps.db.get<{ refs: number; imports: number; keys: number; names: number }>(
      `SELECT (SELECT count(*) FROM code_reference_sites WHERE file_rowid = (SELECT rowid FROM files WHERE file_id = ?)) AS refs, (SELECT count(*) FROM file_imports WHERE file_rowid = (SELECT rowid FROM files WHERE file_id = ?)) AS imports,
              (SELECT count(*) FROM file_module_keys WHERE file_rowid = (SELECT rowid FROM files WHERE file_id = ?)) AS keys, (SELECT count(*) FROM code_names WHERE folded = 'farewell') AS names`,
      [fileId, fileId, fileId],
    );
    expect(counts).toEqual({ refs: 0, imports: 0, keys: 0, names: 0 });
    const other = await symbols(w, ids["src/format.ts"]!);
    expect(other.map((s) => [s.name, s.retired_at])).toEqual([["format", null]]);
  });

  it("imports become file-to-file edges, also when the target is read after the importer", async () => {
    const first = await ingestAndRead(w, [fileEntry("src/greet.ts", GREET)]);
    const edges = () => w.app.deps.db.all<{ from_file_id: string; to_file_id: string }>("SELECT from_file_id, to_file_id FROM file_import_edges");
    expect(await edges()).toEqual([]);
    const second = await ingestAndRead(w, [fileEntry("src/format.ts", FORMAT), fileEntry("pkg/models/__init__.py", "class User:\n    pass\n"), fileEntry("pkg/app.py", "from .models import User\n\nUser()\n")]);
    expect(await edges()).toEqual(
      expect.arrayContaining([
        { from_file_id: first["src/greet.ts"], to_file_id: second["src/format.ts"] },
        { from_file_id: second["pkg/app.py"], to_file_id: second["pkg/models/__init__.py"] },
      ]),
    );
    expect(await edges()).toHaveLength(2);
  });

  it("a file that is not source text is read as code with no units", async () => {
    const ids = await ingestAndRead(w, [fileEntry("video/clip.ts", new Uint8Array([0x47, 0x00, 0x11, 0x10]), { contentType: "video/mp2t" })]);
    expect(await liveFactions(w, ids["video/clip.ts"]!)).toEqual([]);
    const status = await w.app.deps.db.get<{ status: string }>("SELECT status FROM files WHERE file_id = ?", [ids["video/clip.ts"]!]);
    expect(status?.status).toBe("ready");
  });
});
