import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";

/** One identifier occurrence of a file, ready to store. */
export interface NewCodeReference {
  name: string;
  kind: "declaration" | "usage";
  lineStart: number;
  lineEnd: number;
  nameLine: number;
  nameCol: number;
  /** The declared symbol, for a declaration. */
  symbolId: string | null;
}

/** A stored reference, as listed. */
export interface CodeReferenceRow extends NewCodeReference {
  projectId: string;
  fileId: string;
  path: string;
  folded: string;
}

interface Row {
  project_id: string;
  file_id: string;
  path: string;
  name: string;
  folded: string;
  kind: "declaration" | "usage";
  line_start: number;
  line_end: number;
  name_line: number;
  name_col: number;
  symbol_id: string | null;
}

const toReference = (r: Row): CodeReferenceRow => ({
  projectId: r.project_id,
  fileId: r.file_id,
  path: r.path,
  name: r.name,
  folded: r.folded,
  kind: r.kind,
  lineStart: Number(r.line_start),
  lineEnd: Number(r.line_end),
  nameLine: Number(r.name_line),
  nameCol: Number(r.name_col),
  symbolId: r.symbol_id,
});

/** Listing order; `code_references_order` serves it without sorting. */
const ORDER = "ORDER BY folded, name, kind, path, line_start, name_col";
/** Sorts after every string that starts with a given prefix. */
const PAST_PREFIX = "\u{10FFFF}";
const BATCH = 500;

/** The case-folded form names are matched and ordered by. */
export function foldName(name: string): string {
  return name.toLowerCase();
}

async function namesOfFile(q: Queryable, fileId: string): Promise<Set<string>> {
  const rows = await q.all<{ folded: string }>("SELECT DISTINCT folded FROM code_references WHERE file_id = ?", [fileId]);
  return new Set(rows.map((r) => r.folded));
}

/** Inserts references of one file (their rows as `code_references` holds them). */
export function insertFileReferences(
  q: Queryable,
  file: { projectId: string; fileId: string; path: string },
  references: readonly NewCodeReference[],
): Promise<void> {
  return insertRows(
    q,
    "code_references",
    ["project_id", "file_id", "path", "name", "folded", "kind", "line_start", "line_end", "name_line", "name_col", "symbol_id"],
    references.map((r) => [
      file.projectId, file.fileId, file.path, r.name, foldName(r.name), r.kind, r.lineStart, r.lineEnd, r.nameLine, r.nameCol, r.symbolId,
    ]),
  );
}

/**
 * Keeps the project's name list in step with a file whose references were
 * rewritten: names it carried `before` and no longer carries are dropped
 * unless another reference of the project still does; names it now carries
 * are added.
 */
export async function syncCodeNames(q: Queryable, projectId: string, before: ReadonlySet<string>, references: readonly NewCodeReference[]): Promise<void> {
  const after = [...new Set(references.map((r) => foldName(r.name)))];
  const added = after.filter((name) => !before.has(name));
  for (let i = 0; i < added.length; i += BATCH) {
    const slice = added.slice(i, i + BATCH);
    await q.execute(
      `INSERT OR IGNORE INTO code_names (project_id, folded) VALUES ${slice.map(() => "(?, ?)").join(", ")}`,
      slice.flatMap((name) => [projectId, name]),
    );
  }
  const kept = new Set(after);
  const dropped = [...before].filter((name) => !kept.has(name));
  for (let i = 0; i < dropped.length; i += BATCH) {
    const slice = dropped.slice(i, i + BATCH);
    await q.execute(
      `DELETE FROM code_names WHERE project_id = ? AND folded IN (${placeholders(slice.length)})
       AND NOT EXISTS (SELECT 1 FROM code_references r WHERE r.project_id = code_names.project_id AND r.folded = code_names.folded)`,
      [projectId, ...slice],
    );
  }
}

/** Replaces a file's references whole, keeping the project's name list in step. */
export async function replaceFileReferences(
  q: Queryable,
  file: { projectId: string; fileId: string; path: string },
  references: readonly NewCodeReference[],
): Promise<void> {
  const before = await namesOfFile(q, file.fileId);
  await q.execute("DELETE FROM code_references WHERE file_id = ?", [file.fileId]);
  await insertFileReferences(q, file, references);
  await syncCodeNames(q, file.projectId, before, references);
}

/**
 * References of a project whose folded name starts with `prefix` (all of
 * them for ""), in listing order.
 */
export async function referencesWithPrefix(q: Queryable, projectId: string, prefix: string, limit: number): Promise<CodeReferenceRow[]> {
  const rows = await q.all<Row>(
    `SELECT * FROM code_references WHERE project_id = ? AND folded >= ? AND folded < ? ${ORDER} LIMIT ?`,
    [projectId, prefix, prefix + PAST_PREFIX, limit],
  );
  return rows.map(toReference);
}

/** References of a project under exactly this folded name, in listing order. */
export async function referencesNamed(q: Queryable, projectId: string, folded: string, limit: number): Promise<CodeReferenceRow[]> {
  const rows = await q.all<Row>(`SELECT * FROM code_references WHERE project_id = ? AND folded = ? ${ORDER} LIMIT ?`, [
    projectId,
    folded,
    limit,
  ]);
  return rows.map(toReference);
}

/**
 * Folded names of a project that contain `needle` past their first
 * character (names starting with it are prefix matches), alphabetically.
 */
export async function namesContaining(q: Queryable, projectId: string, needle: string, limit: number): Promise<string[]> {
  const rows = await q.all<{ folded: string }>(
    "SELECT folded FROM code_names WHERE project_id = ? AND instr(folded, ?) > 1 ORDER BY folded LIMIT ?",
    [projectId, needle, limit],
  );
  return rows.map((r) => r.folded);
}

/** How many references of a project have a folded name starting with `prefix` (all of them for ""). */
export async function countReferencesWithPrefix(q: Queryable, projectId: string, prefix: string): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT count(*) AS n FROM code_references WHERE project_id = ? AND folded >= ? AND folded < ?", [
    projectId,
    prefix,
    prefix + PAST_PREFIX,
  ]);
  return Number(row?.n ?? 0);
}

/** How many references of a project have a folded name containing `needle` past its first character. */
export async function countReferencesContaining(q: Queryable, projectId: string, needle: string): Promise<number> {
  const row = await q.get<{ n: number }>(
    `SELECT count(*) AS n FROM code_references WHERE project_id = ? AND folded IN
       (SELECT folded FROM code_names WHERE project_id = ? AND instr(folded, ?) > 1)`,
    [projectId, projectId, needle],
  );
  return Number(row?.n ?? 0);
}
