import type { InValue } from "@libsql/client";
import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { rowidIn, rowidsOf } from "../graph/row-keys.js";

/** A declared symbol as stored. */
export interface SymbolRecord {
  symbolId: string;
  fileId: string;
  language: string;
  name: string;
  qualifiedName: string;
  /** Number of enclosing declarations (0 at top level). */
  depth: number;
  kind: string;
  lineStart: number;
  lineEnd: number;
  signature: string;
  doc: string | null;
  factionId: string | null;
  cellId: string | null;
  entityId: string | null;
}

/** What resolving a usage needs of a live symbol. */
export interface SymbolCandidate {
  symbolId: string;
  fileId: string;
  name: string;
  depth: number;
}

/** The columns of `symbol_rows` a write sets: the project, file, faction, cell and entity by rowid (`0035-symbol-rowids.sql`). */
const COLUMNS = [
  "project_rowid", "symbol_id", "file_rowid", "language", "name", "qualified_name", "depth", "kind", "line_start",
  "line_end", "signature", "doc", "faction_rowid", "cell_rowid", "entity_rowid",
] as const;
const UPDATED = COLUMNS.filter((c) => c !== "project_rowid" && c !== "symbol_id");
const ROWS_PER_STATEMENT = 100;
const BATCH = 500;

/**
 * Writes symbols by id: a new id is inserted, a known one (live or retired)
 * is updated in place and made live again, so an id never changes hands.
 */
export async function upsertSymbols(q: Queryable, projectId: string, symbols: readonly SymbolRecord[]): Promise<void> {
  if (symbols.length === 0) return;
  const one = `(${COLUMNS.map(() => "?").join(", ")})`;
  const set = [...UPDATED.map((c) => `${c} = excluded.${c}`), "retired_at = NULL"].join(", ");
  const rowid = await symbolKeys(q, projectId, symbols);
  for (let i = 0; i < symbols.length; i += ROWS_PER_STATEMENT) {
    const slice = symbols.slice(i, i + ROWS_PER_STATEMENT);
    const args: InValue[] = slice.flatMap((s) => [
      rowid.project, s.symbolId, rowid.file(s.fileId), s.language, s.name, s.qualifiedName, s.depth, s.kind, s.lineStart,
      s.lineEnd, s.signature, s.doc, rowid.faction(s.factionId), rowid.cell(s.cellId), rowid.entity(s.entityId),
    ]);
    await q.execute(
      `INSERT INTO symbol_rows (${COLUMNS.join(", ")}) VALUES ${slice.map(() => one).join(", ")}
       ON CONFLICT (project_rowid, symbol_id) DO UPDATE SET ${set}`,
      args,
    );
  }
}

/** The rowids of the project, files, factions, cells and entities these symbols name: one key search per 500 ids of each. */
async function symbolKeys(q: Queryable, projectId: string, symbols: readonly SymbolRecord[]) {
  const ids = (pick: (s: SymbolRecord) => string | null) => symbols.flatMap((s) => pick(s) ?? []);
  const projects = await rowidsOf(q, "projects", [projectId]);
  const files = await rowidsOf(q, "files", ids((s) => s.fileId));
  const factions = await rowidsOf(q, "faction_rows", ids((s) => s.factionId));
  const cells = await rowidsOf(q, "cell_rows", ids((s) => s.cellId));
  const entities = await rowidsOf(q, "entity_rows", ids((s) => s.entityId));
  const of = (map: ReadonlyMap<string, number>, what: string) => (id: string | null) => (id === null ? null : rowidIn(map, id, what));
  return {
    project: rowidIn(projects, projectId, "project"),
    file: (id: string) => rowidIn(files, id, "file"),
    faction: of(factions, "faction"),
    cell: of(cells, "cell"),
    entity: of(entities, "entity"),
  };
}

/** Every symbol a file ever declared (live or retired): id → entity id. */
export async function symbolEntitiesOfFile(q: Queryable, fileId: string): Promise<Map<string, string | null>> {
  const rows = await q.all<{ symbol_id: string; entity_id: string | null }>("SELECT symbol_id, entity_id FROM symbols WHERE file_id = ?", [fileId]);
  return new Map(rows.map((r) => [r.symbol_id, r.entity_id]));
}

/** Ids of a file's live symbols. */
export async function liveSymbolIdsOfFile(q: Queryable, fileId: string): Promise<string[]> {
  const rows = await q.all<{ symbol_id: string }>("SELECT symbol_id FROM symbols WHERE file_id = ? AND retired_at IS NULL", [fileId]);
  return rows.map((r) => r.symbol_id);
}

/** Retires these symbols of a project. */
export async function retireSymbols(q: Queryable, projectId: string, symbolIds: readonly string[], now: string): Promise<void> {
  for (let i = 0; i < symbolIds.length; i += BATCH) {
    const slice = symbolIds.slice(i, i + BATCH);
    await q.execute(
      `UPDATE symbol_rows SET retired_at = ? WHERE project_rowid = (SELECT rowid FROM projects WHERE project_id = ?) AND symbol_id IN (${placeholders(slice.length)})`,
      [now, projectId, ...slice],
    );
  }
}

/** Retires every live symbol of a file. */
export async function retireSymbolsOfFile(q: Queryable, fileId: string, now: string): Promise<void> {
  await q.execute("UPDATE symbol_rows SET retired_at = ? WHERE file_rowid = (SELECT rowid FROM files WHERE file_id = ?) AND retired_at IS NULL", [
    now,
    fileId,
  ]);
}

/** Live symbols of these projects declared under any of these names. */
export async function liveSymbolsNamed(q: Queryable, projectIds: readonly string[], names: readonly string[]): Promise<SymbolCandidate[]> {
  const out: SymbolCandidate[] = [];
  for (let i = 0; i < names.length; i += BATCH) {
    const slice = names.slice(i, i + BATCH);
    const rows = await q.all<{ symbol_id: string; file_id: string; name: string; depth: number }>(
      `SELECT symbol_id, file_id, name, depth FROM symbols
       WHERE project_id IN (${placeholders(projectIds.length)}) AND name IN (${placeholders(slice.length)}) AND retired_at IS NULL`,
      [...projectIds, ...slice],
    );
    for (const r of rows) out.push({ symbolId: r.symbol_id, fileId: r.file_id, name: r.name, depth: Number(r.depth) });
  }
  // Sorted here: an ORDER BY would tempt the planner into scanning the primary key for a single name.
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.symbolId < b.symbolId ? -1 : a.symbolId > b.symbolId ? 1 : 0));
}

/** Live top-level declarations of these files that are their default export (`export default …`). */
export async function liveDefaultExports(q: Queryable, fileIds: readonly string[]): Promise<SymbolCandidate[]> {
  const out: SymbolCandidate[] = [];
  for (let i = 0; i < fileIds.length; i += BATCH) {
    const slice = fileIds.slice(i, i + BATCH);
    const rows = await q.all<{ symbol_id: string; file_id: string; name: string; depth: number }>(
      `SELECT symbol_id, file_id, name, depth FROM symbols
       WHERE file_id IN (${placeholders(slice.length)}) AND retired_at IS NULL AND depth = 0 AND signature LIKE 'export default %'`,
      slice,
    );
    for (const r of rows) out.push({ symbolId: r.symbol_id, fileId: r.file_id, name: r.name, depth: Number(r.depth) });
  }
  return out;
}
