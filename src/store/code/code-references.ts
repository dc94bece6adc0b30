import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";
import { decodeSites, encodeSites, groupSites } from "./reference-sites.js";
import type { SiteGroup } from "./reference-sites.js";

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
  sites: string;
}

/** A packed row's occurrences, in listing order. */
function expand(r: Row): CodeReferenceRow[] {
  return decodeSites(r.sites).map((site) => ({ projectId: r.project_id, fileId: r.file_id, path: r.path, name: r.name, folded: r.folded, kind: r.kind, ...site }));
}

/** The first `limit` occurrences of packed rows listed in order (each row holds at least one). */
function firstOccurrences(rows: readonly Row[], limit: number): CodeReferenceRow[] {
  const out: CodeReferenceRow[] = [];
  for (const r of rows) {
    if (out.length >= limit) break;
    out.push(...expand(r));
  }
  return out.slice(0, limit);
}

/**
 * Listing order: the key's name and kind, then the file's path (sorted per
 * name: the key serves the rest), then each row's sites in (line_start,
 * name_col) order.
 */
const ORDER = "ORDER BY r.folded, r.name, r.usage, f.path, f.file_id";
/**
 * A packed row's kind as the word reads answer: the row holds a flag,
 * `usage` 1 or 0 (`0040-reference-usage-flag.sql`).
 */
export const KIND = "CASE r.usage WHEN 1 THEN 'usage' ELSE 'declaration' END";
/** The flag a packed row of this kind holds. */
export const usageFlag = (kind: "declaration" | "usage"): number => (kind === "usage" ? 1 : 0);
const FROM = `SELECT f.project_id, f.file_id, f.path, r.name, r.folded, ${KIND} AS kind, r.sites FROM code_reference_sites r JOIN files f ON f.rowid = r.file_rowid`;
/** The rowid a file's reference rows are keyed by. */
export const FILE_ROWID = "(SELECT rowid FROM files WHERE file_id = ?)";
/** The rowid the rows of the project bound here are keyed by (`0031-reference-project-rowid.sql`). */
export const PROJECT_ROWID = "(SELECT rowid FROM projects WHERE project_id = ?)";
/** The rowids of the `n` projects bound here. */
export const projectRowids = (n: number): string => `(SELECT rowid FROM projects WHERE project_id IN (${placeholders(n)}))`;
/** Sorts after every string that starts with a given prefix. */
const PAST_PREFIX = "\u{10FFFF}";
const BATCH = 500;

/** The case-folded form names are matched and ordered by. */
export function foldName(name: string): string {
  return name.toLowerCase();
}

async function namesOfFile(q: Queryable, fileId: string): Promise<Set<string>> {
  const rows = await q.all<{ folded: string }>(`SELECT DISTINCT folded FROM code_reference_sites WHERE file_rowid = ${FILE_ROWID}`, [fileId]);
  return new Set(rows.map((r) => r.folded));
}

/** Inserts packed rows of one file (none of them stored yet). */
export async function insertSiteGroups(q: Queryable, file: { projectId: string; fileId: string }, groups: readonly SiteGroup[]): Promise<void> {
  if (groups.length === 0) return;
  const row = await q.get<{ rowid: number; project_rowid: number }>(
    "SELECT f.rowid, p.rowid AS project_rowid FROM files f JOIN projects p ON p.project_id = f.project_id WHERE f.file_id = ?",
    [file.fileId],
  );
  if (!row) return;
  await insertRows(
    q,
    "code_reference_sites",
    ["project_rowid", "folded", "name", "usage", "file_rowid", "n", "sites"],
    groups.map((g) => [Number(row.project_rowid), foldName(g.name), g.name, usageFlag(g.kind), Number(row.rowid), g.sites.length, encodeSites(g.sites)]),
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
      `INSERT OR IGNORE INTO code_names (project_rowid, folded) SELECT ${PROJECT_ROWID}, value FROM json_each(?)`,
      [projectId, JSON.stringify(slice)],
    );
  }
  const kept = new Set(after);
  const dropped = [...before].filter((name) => !kept.has(name));
  for (let i = 0; i < dropped.length; i += BATCH) {
    const slice = dropped.slice(i, i + BATCH);
    await q.execute(
      `DELETE FROM code_names WHERE project_rowid = ${PROJECT_ROWID} AND folded IN (${placeholders(slice.length)})
       AND NOT EXISTS (SELECT 1 FROM code_reference_sites r WHERE r.project_rowid = ${PROJECT_ROWID} AND r.folded = code_names.folded)`,
      [projectId, ...slice, projectId],
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
  await q.execute(`DELETE FROM code_reference_sites WHERE file_rowid = ${FILE_ROWID}`, [file.fileId]);
  await insertSiteGroups(q, file, groupSites(references));
  await syncCodeNames(q, file.projectId, before, references);
}

/**
 * References of a project whose folded name starts with `prefix` (all of
 * them for ""), in listing order.
 */
export async function referencesWithPrefix(q: Queryable, projectId: string, prefix: string, limit: number): Promise<CodeReferenceRow[]> {
  const rows = await q.all<Row>(
    `${FROM} WHERE r.project_rowid = ${PROJECT_ROWID} AND r.folded >= ? AND r.folded < ? ${ORDER} LIMIT ?`,
    [projectId, prefix, prefix + PAST_PREFIX, limit],
  );
  return firstOccurrences(rows, limit);
}

/** References of a project under exactly this folded name, in listing order. */
export async function referencesNamed(q: Queryable, projectId: string, folded: string, limit: number): Promise<CodeReferenceRow[]> {
  const rows = await q.all<Row>(`${FROM} WHERE r.project_rowid = ${PROJECT_ROWID} AND r.folded = ? ${ORDER} LIMIT ?`, [
    projectId,
    folded,
    limit,
  ]);
  return firstOccurrences(rows, limit);
}

/**
 * Folded names of a project that contain `needle` past their first
 * character (names starting with it are prefix matches), alphabetically.
 */
export async function namesContaining(q: Queryable, projectId: string, needle: string, limit: number): Promise<string[]> {
  const rows = await q.all<{ folded: string }>(
    `SELECT folded FROM code_names WHERE project_rowid = ${PROJECT_ROWID} AND instr(folded, ?) > 1 ORDER BY folded LIMIT ?`,
    [projectId, needle, limit],
  );
  return rows.map((r) => r.folded);
}

/** How many references of a project have a folded name starting with `prefix` (all of them for ""). */
export async function countReferencesWithPrefix(q: Queryable, projectId: string, prefix: string): Promise<number> {
  const row = await q.get<{ n: number }>(`SELECT sum(n) AS n FROM code_reference_sites WHERE project_rowid = ${PROJECT_ROWID} AND folded >= ? AND folded < ?`, [
    projectId,
    prefix,
    prefix + PAST_PREFIX,
  ]);
  return Number(row?.n ?? 0);
}

/** How many references of a project have a folded name containing `needle` past its first character. */
export async function countReferencesContaining(q: Queryable, projectId: string, needle: string): Promise<number> {
  const row = await q.get<{ n: number }>(
    `SELECT sum(n) AS n FROM code_reference_sites WHERE project_rowid = ${PROJECT_ROWID} AND folded IN
       (SELECT folded FROM code_names WHERE project_rowid = ${PROJECT_ROWID} AND instr(folded, ?) > 1)`,
    [projectId, projectId, needle],
  );
  return Number(row?.n ?? 0);
}
