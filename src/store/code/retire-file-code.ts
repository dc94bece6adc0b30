import type { Queryable } from "../db.js";
import { replaceFileReferences } from "./code-references.js";
import { deleteFileImports } from "./file-imports.js";
import { replaceSymbolSearchRows } from "../search/symbol-search.js";
import { retireSymbolsOfFile } from "./symbols.js";

/**
 * Retires the code index of a file that left the project: its symbols are
 * retired (their ids stay reserved for it), its references, imports,
 * path keys and search rows go.
 */
export async function retireFileCode(q: Queryable, fileId: string, now: string): Promise<void> {
  const file = await q.get<{ project_id: string; path: string }>("SELECT project_id, path FROM files WHERE file_id = ?", [fileId]);
  if (!file) return;
  await retireSymbolsOfFile(q, fileId, now);
  await replaceFileReferences(q, { projectId: file.project_id, fileId, path: file.path }, []);
  await deleteFileImports(q, fileId);
  await replaceSymbolSearchRows(q, fileId, []);
}
