/**
 * Read-only checks of a pks database after a crash: what the durability
 * test asserts after every `kill -9` and after the final clean stop.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readerFor } from "../../src/readers/index.js";
import { openDatabase } from "../../src/store/db.js";
import { getChunkBytes } from "../../src/store/files/chunks.js";
import { fillTextAtLines } from "../../src/store/graph/faction-text.js";
import type { SlicedTextRow } from "../../src/store/graph/faction-text.js";
import type { Queryable } from "../../src/store/db.js";

/** What the client knows about one path: the acknowledged version and any unanswered attempts since. */
export interface ExpectedFile {
  path: string;
  /** The file id every acknowledgement of this path returned, if any came back. */
  fileId: string | undefined;
  /** sha256 (hex) of the last acknowledged bytes, if any. */
  ackedSha: string | undefined;
  /** sha256 (hex) of attempts sent after that acknowledgement that got no answer (they may have committed). */
  pendingShas: ReadonlySet<string>;
}

/** Options of one check. */
export interface CheckOptions {
  projectId: string;
  expected: readonly ExpectedFile[];
  /** The final state: every file must be `ready` and read from its current bytes. */
  requireSettled?: boolean;
}

/** What a check found. `violations` is empty when every invariant holds. */
export interface CheckReport {
  violations: string[];
  files: Record<string, number>;
  liveFactions: number;
  liveCells: number;
  version: number;
  leaseId: string | undefined;
  /** Files found `reading`: the worker was interrupted mid-reading. */
  interruptedReadings: number;
}

/** The expected reading of one chunk, by faction and cell text. */
interface Reading {
  factions: string[];
  cells: string[];
}

const readingCache = new Map<string, Reading>();

/** sha256 (hex) of some bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Copies a database file and its WAL into a fresh temp folder, so the copy
 * can be opened (and recovered) without touching the original, which the
 * next server start must recover by itself.
 */
export function snapshotDatabase(dbPath: string): { path: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "pks-snapshot-"));
  const path = join(dir, "snapshot.db");
  copyFileSync(dbPath, path);
  if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${path}-wal`);
  return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens the database file at `path` and checks every invariant. */
export async function checkDatabaseFile(path: string, options: CheckOptions): Promise<CheckReport> {
  const db = await openDatabase({ url: `file:${path}` });
  try {
    return await checkDatabase(db, options);
  } finally {
    db.close();
  }
}

/** Checks integrity, orphans, duplicates, acknowledged files and readings. */
export async function checkDatabase(db: Queryable, options: CheckOptions): Promise<CheckReport> {
  const violations: string[] = [];
  violations.push(...(await integrityViolations(db)));
  violations.push(...(await orphanViolations(db)));
  violations.push(...(await duplicateViolations(db)));
  violations.push(...(await chunkViolations(db)));
  violations.push(...(await expectedFileViolations(db, options)));
  violations.push(...(await readingViolations(db)));
  violations.push(...(await searchIndexViolations(db)));
  const statusRows = await db.all<{ status: string; n: number }>("SELECT status, count(*) AS n FROM files GROUP BY status");
  const files = Object.fromEntries(statusRows.map((r) => [r.status, Number(r.n)]));
  const version = await db.get<{ v: number }>("SELECT corpus_version AS v FROM projects WHERE project_id = ?", [options.projectId]);
  const lease = await db.get<{ lease_id: string }>("SELECT lease_id FROM leases WHERE project_id = ?", [options.projectId]);
  return {
    violations,
    files,
    liveFactions: await count(db, "SELECT count(*) AS n FROM factions WHERE retired_at IS NULL"),
    liveCells: await count(db, "SELECT count(*) AS n FROM cells WHERE retired_at IS NULL"),
    version: Number(version?.v ?? 0),
    leaseId: lease?.lease_id,
    interruptedReadings: files.reading ?? 0,
  };
}

async function count(db: Queryable, sql: string): Promise<number> {
  const row = await db.get<{ n: number }>(sql);
  return Number(row?.n ?? 0);
}

async function integrityViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  const integrity = await db.all<Record<string, unknown>>("PRAGMA integrity_check");
  const verdict = integrity.map((r) => String(Object.values(r)[0])).join("; ");
  if (verdict !== "ok") out.push(`integrity_check: ${verdict}`);
  const fk = await db.all<Record<string, unknown>>("PRAGMA foreign_key_check");
  if (fk.length > 0) out.push(`foreign_key_check: ${fk.length} rows, first ${JSON.stringify(fk[0])}`);
  return out;
}

/** Each query counts rows that must not exist. */
const ORPHAN_QUERIES: Array<[string, string]> = [
  ["cells whose faction is missing", "SELECT count(*) AS n FROM cells c WHERE NOT EXISTS (SELECT 1 FROM factions f WHERE f.faction_id = c.faction_id)"],
  ["cells whose file is missing", "SELECT count(*) AS n FROM cells c WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.file_id = c.file_id)"],
  ["factions whose file is missing", "SELECT count(*) AS n FROM factions x WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.file_id = x.file_id)"],
  ["files whose chunk is missing", "SELECT count(*) AS n FROM files f WHERE NOT EXISTS (SELECT 1 FROM chunks k WHERE k.project_id = f.project_id AND k.chunk_id = f.chunk_id)"],
  ["cells filed under another file than their faction", "SELECT count(*) AS n FROM cells c JOIN factions f ON f.faction_id = c.faction_id WHERE f.file_id <> c.file_id OR f.project_id <> c.project_id"],
  ["live cells of retired factions", "SELECT count(*) AS n FROM cells c JOIN factions f ON f.faction_id = c.faction_id WHERE c.retired_at IS NULL AND f.retired_at IS NOT NULL"],
  ["live factions of retired files", "SELECT count(*) AS n FROM factions x JOIN files f ON f.file_id = x.file_id WHERE x.retired_at IS NULL AND f.status = 'retired'"],
  ["live cells whose parent is missing or retired", "SELECT count(*) AS n FROM cells c LEFT JOIN cells p ON p.cell_id = c.parent_cell_id WHERE c.retired_at IS NULL AND c.parent_cell_id IS NOT NULL AND (p.cell_id IS NULL OR p.retired_at IS NOT NULL)"],
  ["live cells whose parent is in another file", "SELECT count(*) AS n FROM cells c JOIN cells p ON p.cell_id = c.parent_cell_id WHERE c.retired_at IS NULL AND p.file_id <> c.file_id"],
  ["files whose lease is missing", "SELECT count(*) AS n FROM files f WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.project_id = f.project_id)"],
];

async function orphanViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  for (const [what, sql] of ORPHAN_QUERIES) {
    const n = await count(db, sql);
    if (n > 0) out.push(`${n} ${what}`);
  }
  return out;
}

/** Each query counts duplicates: ids, paths, and places in a file's live reading. */
const DUPLICATE_QUERIES: Array<[string, string]> = [
  ["duplicate file ids", "SELECT count(*) - count(DISTINCT file_id) AS n FROM files"],
  ["duplicate faction ids", "SELECT count(*) - count(DISTINCT faction_id) AS n FROM factions"],
  ["duplicate cell ids", "SELECT count(*) - count(DISTINCT cell_id) AS n FROM cells"],
  ["paths held by more than one file", "SELECT count(*) AS n FROM (SELECT 1 FROM files GROUP BY project_id, path HAVING count(*) > 1)"],
  ["leases per project beyond one", "SELECT count(*) AS n FROM (SELECT 1 FROM leases GROUP BY project_id HAVING count(*) > 1)"],
  ["live factions sharing a place in their file", "SELECT count(*) AS n FROM (SELECT 1 FROM factions WHERE retired_at IS NULL GROUP BY file_id, ordinal HAVING count(*) > 1)"],
  ["live cells sharing a place in their file", "SELECT count(*) AS n FROM (SELECT 1 FROM cells WHERE retired_at IS NULL GROUP BY file_id, ordinal HAVING count(*) > 1)"],
  ["malformed ids", `SELECT (SELECT count(*) FROM files WHERE file_id NOT GLOB 'fil_*') + (SELECT count(*) FROM factions WHERE faction_id NOT GLOB 'fac_*')
     + (SELECT count(*) FROM cells WHERE cell_id NOT GLOB 'cel_*') + (SELECT count(*) FROM leases WHERE lease_id NOT GLOB 'lse_*') AS n`],
];

async function duplicateViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  for (const [what, sql] of DUPLICATE_QUERIES) {
    const n = await count(db, sql);
    if (n > 0) out.push(`${n} ${what}`);
  }
  return out;
}

/** Every stored chunk's bytes (inflated when stored deflated) hash to its id and match its size. */
async function chunkViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  const rows = await db.all<{ project_id: string; chunk_id: string; size: number }>("SELECT project_id, chunk_id, size FROM chunks");
  for (const r of rows) {
    const bytes = (await getChunkBytes(db, r.project_id, r.chunk_id))!;
    if (`sha256:${sha256Hex(bytes)}` !== r.chunk_id) out.push(`chunk ${r.chunk_id.slice(0, 20)}… holds bytes of another hash`);
    if (bytes.byteLength !== Number(r.size)) out.push(`chunk ${r.chunk_id.slice(0, 20)}… size ${r.size} but ${bytes.byteLength} bytes`);
  }
  return out;
}

interface FileRow {
  file_id: string;
  project_id: string;
  path: string;
  status: string;
  chunk_id: string;
  read_chunk_id: string | null;
  file_size: number;
  content_type: string;
  error: string | null;
}

async function expectedFileViolations(db: Queryable, options: CheckOptions): Promise<string[]> {
  const out: string[] = [];
  const rows = await db.all<FileRow>("SELECT * FROM files WHERE project_id = ?", [options.projectId]);
  const byPath = new Map(rows.map((r) => [r.path, r]));
  const known = new Set(options.expected.map((e) => e.path));
  for (const r of rows) if (!known.has(r.path)) out.push(`${r.path}: stored but never sent`);
  for (const e of options.expected) {
    const row = byPath.get(e.path);
    const allowed = new Set([...(e.ackedSha ? [e.ackedSha] : []), ...e.pendingShas].map((s) => `sha256:${s}`));
    if (!row) {
      if (e.ackedSha) out.push(`${e.path}: acknowledged (sha256 ${e.ackedSha.slice(0, 12)}…) but missing`);
      continue;
    }
    if (row.status === "retired") out.push(`${e.path}: retired, but only ingests and replacements were sent`);
    if (!allowed.has(row.chunk_id)) {
      const acked = e.ackedSha ? `acknowledged ${e.ackedSha.slice(0, 12)}…` : "never acknowledged";
      out.push(`${e.path}: holds ${row.chunk_id.slice(7, 19)}…, ${acked}, ${e.pendingShas.size} unanswered attempts`);
    }
    if (e.fileId && row.file_id !== e.fileId) out.push(`${e.path}: file id ${row.file_id}, acknowledged as ${e.fileId}`);
    if (options.requireSettled && row.status !== "ready") out.push(`${e.path}: ${row.status}${row.error ? ` (${row.error})` : ""} after the queue drained`);
  }
  return out;
}

/** The reading the readers give for a chunk, cached by chunk id (chunks are content-addressed). */
async function expectedReading(db: Queryable, file: FileRow, chunkId: string): Promise<Reading | undefined> {
  const cached = readingCache.get(`${file.content_type} ${file.path} ${chunkId}`);
  if (cached) return cached;
  const bytes = await getChunkBytes(db, file.project_id, chunkId);
  if (!bytes) return undefined;
  const reader = readerFor({ path: file.path, contentType: file.content_type });
  const output = reader ? await reader.read({ path: file.path, contentType: file.content_type, bytes }) : { factions: [], cells: [] };
  const reading = { factions: output.factions.map((f) => `${f.factionType}:${f.text}`), cells: output.cells.map((c) => c.text) };
  readingCache.set(`${file.content_type} ${file.path} ${chunkId}`, reading);
  return reading;
}

/**
 * Fully applied or fully rolled back: a file's live factions and cells are
 * exactly the reading of the bytes it was last read from (none if never
 * read). A `ready` file was read from its current bytes.
 */
async function readingViolations(db: Queryable): Promise<string[]> {
  const out: string[] = [];
  const files = await db.all<FileRow>("SELECT * FROM files WHERE status <> 'retired'");
  for (const f of files) {
    if (f.status === "ready" && f.read_chunk_id !== f.chunk_id) out.push(`${f.path}: ready but last read from other bytes`);
    // A code unit stored as its lines is read back from the bytes the file was read from, as the store reads it.
    const factions = await db.all<SlicedTextRow & { faction_type: string }>(
      `SELECT fa.faction_type, fa.text, fa.text_at_lines, fa.line_start, fa.line_end, fi.project_id, fi.read_chunk_id
       FROM factions fa JOIN files fi ON fi.file_id = fa.file_id WHERE fa.file_id = ? AND fa.retired_at IS NULL ORDER BY fa.ordinal`,
      [f.file_id],
    );
    await fillTextAtLines(db, factions);
    const cells = await db.all<{ text: string }>("SELECT text FROM cells WHERE file_id = ? AND retired_at IS NULL ORDER BY ordinal", [f.file_id]);
    if (f.read_chunk_id === null) {
      if (factions.length + cells.length > 0) out.push(`${f.path}: never read, yet ${factions.length} live factions and ${cells.length} live cells`);
      continue;
    }
    const want = await expectedReading(db, f, f.read_chunk_id);
    if (!want) {
      // The bytes a live reading was read from stay until the next reading commits (its code units may be lines of them).
      out.push(`${f.path}: the bytes it was read from are gone`);
      continue;
    }
    const gotFactions = factions.map((x) => `${x.faction_type}:${x.text}`);
    const gotCells = cells.map((x) => x.text);
    if (!sameList(gotFactions, want.factions)) out.push(`${f.path}: live factions ${describeDiff(gotFactions, want.factions)}`);
    if (!sameList(gotCells, want.cells)) out.push(`${f.path}: live cells ${describeDiff(gotCells, want.cells)}`);
  }
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function describeDiff(got: readonly string[], want: readonly string[]): string {
  const at = got.findIndex((x, i) => x !== want[i]);
  const i = at < 0 ? Math.min(got.length, want.length) : at;
  return `differ from a fresh reading (${got.length} vs ${want.length}; first difference at ${i}: ${JSON.stringify(got[i]?.slice(0, 60))} vs ${JSON.stringify(want[i]?.slice(0, 60))})`;
}

/** Each query counts full-text rows out of step with the live reading (when the indexes exist). */
const SEARCH_INDEX_QUERIES: Array<[string, string, string]> = [
  ["cells_fts", "cell index rows pointing at no live cell", "SELECT count(*) AS n FROM cells_fts WHERE rowid NOT IN (SELECT rowid FROM cells WHERE retired_at IS NULL)"],
  ["cells_fts", "live cells missing from the cell index", "SELECT count(*) AS n FROM cells WHERE retired_at IS NULL AND rowid NOT IN (SELECT rowid FROM cells_fts)"],
  ["files_fts", "file index rows for files with no live cell", "SELECT count(*) AS n FROM files_fts WHERE rowid NOT IN (SELECT f.rowid FROM files f WHERE EXISTS (SELECT 1 FROM cells c WHERE c.file_id = f.file_id AND c.retired_at IS NULL))"],
  ["files_fts", "files with live cells missing from the file index", "SELECT count(*) AS n FROM files f WHERE EXISTS (SELECT 1 FROM cells c WHERE c.file_id = f.file_id AND c.retired_at IS NULL) AND f.rowid NOT IN (SELECT rowid FROM files_fts)"],
];

/** The full-text indexes are written with each reading, in its transaction: they must match the live cells. */
async function searchIndexViolations(db: Queryable): Promise<string[]> {
  const tables = new Set((await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => r.name));
  const out: string[] = [];
  for (const [table, what, sql] of SEARCH_INDEX_QUERIES) {
    if (!tables.has(table)) continue;
    const n = await count(db, sql);
    if (n > 0) out.push(`${n} ${what}`);
  }
  return out;
}
