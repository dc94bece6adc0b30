import type { Queryable } from "../db.js";
import { insertRows, placeholders } from "../insert-rows.js";
import { rowidIn, rowidsOf } from "../graph/row-keys.js";

/** How an import finds its file (see `src/code/module-keys.ts`). */
export type ImportKeyMode = "exact" | "suffix" | "external" | "unknown";

/** One binding of an import statement (or the statement, when it binds no name). */
export interface NewFileImport {
  line: number;
  specifier: string;
  localName: string | null;
  importedName: string | null;
  moduleKey: string | null;
  keyMode: ImportKeyMode;
}

/** A key a file answers to. */
export interface NewModuleKey {
  key: string;
  full: boolean;
}

/** A local name a file imports, with the project files the import may mean. */
export interface ImportBinding {
  fileId: string;
  localName: string;
  importedName: string;
  keyMode: ImportKeyMode;
  line: number;
  targetFileIds: string[];
}

/** A file-to-file import edge. */
export interface ImportEdge {
  projectId: string;
  fromFileId: string;
  toFileId: string;
}

const BATCH = 500;

/** A file's rowid, bound by its id (`0033-import-rowids.sql`). */
const FILE_ROWID = "(SELECT rowid FROM files WHERE file_id = ?)";

/** The project's and the file's rowids, which key a file's import rows and path keys. */
async function fileKeys(q: Queryable, projectId: string, fileId: string): Promise<[number, number]> {
  const projects = await rowidsOf(q, "projects", [projectId]);
  const files = await rowidsOf(q, "files", [fileId]);
  return [rowidIn(projects, projectId, "project"), rowidIn(files, fileId, "file")];
}

/** Replaces a file's imports whole. */
export async function replaceFileImports(q: Queryable, projectId: string, fileId: string, imports: readonly NewFileImport[]): Promise<void> {
  await q.execute(`DELETE FROM file_imports WHERE file_rowid = ${FILE_ROWID}`, [fileId]);
  if (imports.length === 0) return;
  const [projectRowid, fileRowid] = await fileKeys(q, projectId, fileId);
  await insertRows(
    q,
    "file_imports",
    ["project_rowid", "file_rowid", "line", "specifier", "local_name", "imported_name", "module_key", "key_mode"],
    imports.map((i) => [projectRowid, fileRowid, i.line, i.specifier, i.localName, i.importedName, i.moduleKey, i.keyMode]),
  );
}

/** Replaces the keys a file answers to. */
export async function replaceFileModuleKeys(q: Queryable, projectId: string, fileId: string, keys: readonly NewModuleKey[]): Promise<void> {
  await q.execute(`DELETE FROM file_module_keys WHERE file_rowid = ${FILE_ROWID}`, [fileId]);
  if (keys.length === 0) return;
  const [projectRowid, fileRowid] = await fileKeys(q, projectId, fileId);
  await insertRows(
    q,
    "file_module_keys",
    ["project_rowid", "key", "file_rowid", "full"],
    keys.map((k) => [projectRowid, k.key, fileRowid, k.full ? 1 : 0]),
  );
}

/** Forgets a file's imports and keys. */
export async function deleteFileImports(q: Queryable, fileId: string): Promise<void> {
  await q.execute(`DELETE FROM file_imports WHERE file_rowid = ${FILE_ROWID}`, [fileId]);
  await q.execute(`DELETE FROM file_module_keys WHERE file_rowid = ${FILE_ROWID}`, [fileId]);
}

/**
 * The bindings of these local names in these files, each with the live
 * files its import resolves to now (none for an external or unresolved one).
 */
export async function importBindings(q: Queryable, fileIds: readonly string[], localNames: readonly string[]): Promise<ImportBinding[]> {
  if (fileIds.length === 0 || localNames.length === 0) return [];
  const byKey = new Map<string, ImportBinding>();
  for (let i = 0; i < localNames.length; i += BATCH) {
    const names = localNames.slice(i, i + BATCH);
    const rows = await q.all<{ file_id: string; local_name: string; imported_name: string; key_mode: ImportKeyMode; line: number; target: string | null }>(
      `SELECT fi.file_id, i.local_name, i.imported_name, i.key_mode, i.line, kf.file_id AS target
       FROM files fi JOIN file_imports i ON i.file_rowid = fi.rowid
       LEFT JOIN file_module_keys k ON k.project_rowid = i.project_rowid AND k.key = i.module_key
         AND (k.full = 1 OR i.key_mode = 'suffix') AND k.file_rowid <> i.file_rowid
       LEFT JOIN files kf ON kf.rowid = k.file_rowid
       WHERE fi.file_id IN (${placeholders(fileIds.length)}) AND i.local_name IN (${placeholders(names.length)})
       ORDER BY fi.file_id, i.line, kf.file_id`,
      [...fileIds, ...names],
    );
    for (const r of rows) {
      const key = `${r.file_id}\u0000${r.local_name}\u0000${r.line}`;
      const binding = byKey.get(key) ?? {
        fileId: r.file_id, localName: r.local_name, importedName: r.imported_name, keyMode: r.key_mode, line: Number(r.line), targetFileIds: [],
      };
      if (r.target) binding.targetFileIds.push(r.target);
      byKey.set(key, binding);
    }
  }
  return [...byKey.values()];
}

/** File-to-file import edges among these projects' live code files. */
export async function importEdges(q: Queryable, projectIds: readonly string[]): Promise<ImportEdge[]> {
  const rows = await q.all<{ project_id: string; from_file_id: string; to_file_id: string }>(
    `SELECT project_id, from_file_id, to_file_id FROM file_import_edges
     WHERE project_id IN (${placeholders(projectIds.length)}) ORDER BY from_file_id, to_file_id`,
    [...projectIds],
  );
  return rows.map((r) => ({ projectId: r.project_id, fromFileId: r.from_file_id, toFileId: r.to_file_id }));
}
