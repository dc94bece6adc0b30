import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { FILE_ROWID, projectRowids } from "./code-references.js";
import { decodeSites, nameSpots } from "./reference-sites.js";

/** Where an identifier is used: its file, name and line. */
export interface UsageSite {
  fileId: string;
  name: string;
  line: number;
}

/** A live code file a path key names. */
export interface KeyedFile {
  key: string;
  fileId: string;
  path: string;
}

/** One import edge between live code files. */
export interface FileEdge {
  fromFileId: string;
  toFileId: string;
}

const BATCH = 500;

/** Line spans of declarations, to read the usages inside them. */
export interface LineSpan {
  fileId: string;
  lineStart: number;
  lineEnd: number;
}

/** Usages inside these spans, in each file's reading order (line, then column). */
export async function usagesInSpans(q: Queryable, spans: readonly LineSpan[]): Promise<UsageSite[]> {
  const byFile = new Map<string, LineSpan[]>();
  for (const s of spans) byFile.set(s.fileId, [...(byFile.get(s.fileId) ?? []), s]);
  const out: UsageSite[] = [];
  for (const [fileId, list] of byFile) {
    const rows = await q.all<{ name: string; sites: string }>(`SELECT name, sites FROM code_reference_sites WHERE file_rowid = ${FILE_ROWID} AND usage = 1`, [fileId]);
    const within = (line: number) => list.some((span) => line >= span.lineStart && line <= span.lineEnd);
    const inside = rows.flatMap((r) => nameSpots(r.sites, within).map((spot) => ({ name: r.name, line: spot.line, col: spot.col })));
    inside.sort((a, b) => a.line - b.line || a.col - b.col);
    for (const u of inside) out.push({ fileId, name: u.name, line: u.line });
  }
  return out;
}

/** A usage with its file's path, as `usageSitesNamed` lists it. */
export interface PathedUsageSite extends UsageSite {
  path: string;
}

/**
 * Usages of one exact name in these projects in listing order (project,
 * path, line, column), at most `limit`; `where` narrows the packed rows
 * further in SQL (a condition on the file's `f.path`).
 */
export async function usageSitesNamed(q: Queryable, projectIds: readonly string[], name: string, limit: number, where = ""): Promise<PathedUsageSite[]> {
  const rows = await q.all<{ file_id: string; path: string; sites: string }>(
    `SELECT f.file_id, f.path, r.sites FROM code_reference_sites r JOIN files f ON f.rowid = r.file_rowid
     WHERE r.project_rowid IN ${projectRowids(projectIds.length)} AND r.folded = ? AND r.name = ? AND r.usage = 1 ${where}
     ORDER BY f.project_id, f.path, f.file_id LIMIT ?`,
    [...projectIds, name.toLowerCase(), name, limit],
  );
  const out: PathedUsageSite[] = [];
  for (const r of rows) {
    for (const site of decodeSites(r.sites)) {
      if (out.length >= limit) return out;
      out.push({ fileId: r.file_id, path: r.path, name, line: site.nameLine });
    }
  }
  return out;
}

/** Usages of these exact names in these projects, at most `perName` of each. */
export async function usagesNamed(q: Queryable, projectIds: readonly string[], names: readonly string[], perName: number): Promise<UsageSite[]> {
  const out: UsageSite[] = [];
  for (const name of names) {
    for (const u of await usageSitesNamed(q, projectIds, name, perName)) out.push({ fileId: u.fileId, name: u.name, line: u.line });
  }
  return out;
}

/** Live code files of these projects answering to one of these path keys (lower-case). */
export async function filesByKeys(q: Queryable, projectIds: readonly string[], keys: readonly string[]): Promise<KeyedFile[]> {
  if (keys.length === 0) return [];
  const rows = await q.all<{ key: string; file_id: string; path: string }>(
    `SELECT k.key, f.file_id, f.path FROM file_module_keys k JOIN files f ON f.rowid = k.file_rowid
     WHERE k.project_rowid IN ${projectRowids(projectIds.length)} AND k.key IN (${placeholders(keys.length)}) AND f.status <> 'retired'`,
    [...projectIds, ...keys],
  );
  return rows.map((r) => ({ key: r.key, fileId: r.file_id, path: r.path }));
}

/** Live files of these projects by exact project path. */
export async function filesByPaths(q: Queryable, projectIds: readonly string[], paths: readonly string[]): Promise<KeyedFile[]> {
  if (paths.length === 0) return [];
  const rows = await q.all<{ file_id: string; path: string }>(
    `SELECT file_id, path FROM files
     WHERE project_id IN (${placeholders(projectIds.length)}) AND path IN (${placeholders(paths.length)}) AND status <> 'retired'`,
    [...projectIds, ...paths],
  );
  return rows.map((r) => ({ key: r.path, fileId: r.file_id, path: r.path }));
}

/** Most files read per folder by {@link filesInFolders}: a package larger than this is no place. */
const FOLDER_FILES = 64;

/** Live code files directly inside each of these project folders (not in their subfolders), at most {@link FOLDER_FILES} per folder. */
export async function filesInFolders(q: Queryable, projectIds: readonly string[], folders: readonly string[]): Promise<KeyedFile[]> {
  const out: KeyedFile[] = [];
  for (const folder of folders) {
    const prefix = `${folder}/`;
    // A range on the (project_id, path) key: '0' is the character after '/'.
    const rows = await q.all<{ file_id: string; path: string }>(
      `SELECT file_id, path FROM files
       WHERE project_id IN (${placeholders(projectIds.length)}) AND path > ? AND path < ? AND instr(substr(path, ?), '/') = 0
         AND status <> 'retired' AND file_type = 'code'
       ORDER BY path LIMIT ?`,
      [...projectIds, prefix, `${folder}0`, prefix.length + 1, FOLDER_FILES + 1],
    );
    if (rows.length <= FOLDER_FILES) for (const r of rows) out.push({ key: folder, fileId: r.file_id, path: r.path });
  }
  return out;
}

/** Import edges leaving or entering these files (resolved as in `file_import_edges`), at most `limit`. */
export async function importEdgesOf(q: Queryable, fileIds: readonly string[], limit: number): Promise<FileEdge[]> {
  if (fileIds.length === 0) return [];
  const p = placeholders(fileIds.length);
  const rows = await q.all<{ from_file_id: string; to_file_id: string }>(
    `SELECT DISTINCT fa.file_id AS from_file_id, fb.file_id AS to_file_id
     FROM files fa JOIN file_imports i ON i.file_rowid = fa.rowid
     JOIN file_module_keys k ON k.project_rowid = i.project_rowid AND k.key = i.module_key AND (k.full = 1 OR i.key_mode = 'suffix')
     JOIN files fb ON fb.rowid = k.file_rowid
     WHERE fa.file_id IN (${p}) AND i.key_mode IN ('exact', 'suffix') AND k.file_rowid <> i.file_rowid
     UNION
     SELECT DISTINCT fa.file_id, fb.file_id
     FROM files fb JOIN file_module_keys k ON k.file_rowid = fb.rowid
     JOIN file_imports i ON i.project_rowid = k.project_rowid AND i.module_key = k.key AND (k.full = 1 OR i.key_mode = 'suffix')
     JOIN files fa ON fa.rowid = i.file_rowid
     WHERE fb.file_id IN (${p}) AND i.key_mode IN ('exact', 'suffix') AND k.file_rowid <> i.file_rowid
     LIMIT ?`,
    [...fileIds, ...fileIds, limit],
  );
  return rows.map((r) => ({ fromFileId: r.from_file_id, toFileId: r.to_file_id }));
}

/** Project paths of these live files. */
export async function pathsOfFiles(q: Queryable, fileIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < fileIds.length; i += BATCH) {
    const slice = fileIds.slice(i, i + BATCH);
    const rows = await q.all<{ file_id: string; path: string }>(
      `SELECT file_id, path FROM files WHERE file_id IN (${placeholders(slice.length)}) AND status <> 'retired'`,
      slice,
    );
    for (const r of rows) out.set(r.file_id, r.path);
  }
  return out;
}
