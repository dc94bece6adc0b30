import type { Queryable } from "../db.js";
import { placeholders } from "../insert-rows.js";
import { usageSitesNamed } from "./code-graph-reads.js";
import { projectRowids } from "./code-references.js";

/** A live code file with the count of its live declarations. */
export interface FileDeclarationCount {
  fileId: string;
  path: string;
  key: string;
  declarations: number;
}

const BATCH = 500;

/**
 * Live code files answering to these path keys (lower-case tails, see
 * src/code/module-keys.ts) with how many live declarations each holds: the
 * cheap first test of whether two files are copies of one another.
 */
export async function filesByKeysWithCounts(q: Queryable, projectIds: readonly string[], keys: readonly string[]): Promise<FileDeclarationCount[]> {
  const out: FileDeclarationCount[] = [];
  for (let i = 0; i < keys.length; i += BATCH) {
    const slice = keys.slice(i, i + BATCH);
    const rows = await q.all<{ key: string; file_id: string; path: string; n: number }>(
      `SELECT k.key, f.file_id, f.path,
         (SELECT count(*) FROM symbol_rows s WHERE s.file_rowid = f.rowid AND s.retired_at IS NULL) AS n
       FROM file_module_keys k JOIN files f ON f.rowid = k.file_rowid
       WHERE k.project_rowid IN ${projectRowids(projectIds.length)} AND k.key IN (${placeholders(slice.length)}) AND f.status <> 'retired'`,
      [...projectIds, ...slice],
    );
    for (const r of rows) out.push({ fileId: r.file_id, path: r.path, key: r.key, declarations: Number(r.n) });
  }
  return out;
}

/** A live declaration's shape, without its place: what two copies of a file share. */
export interface DeclarationShape {
  fileId: string;
  qualifiedName: string;
  kind: string;
  lineSpan: number;
  signature: string;
}

/** The live declarations of these files, in line order per file. */
export async function declarationShapes(q: Queryable, fileIds: readonly string[]): Promise<DeclarationShape[]> {
  const out: DeclarationShape[] = [];
  for (let i = 0; i < fileIds.length; i += BATCH) {
    const slice = fileIds.slice(i, i + BATCH);
    const rows = await q.all<{ file_id: string; qualified_name: string; kind: string; span: number; signature: string }>(
      `SELECT file_id, qualified_name, kind, line_end - line_start AS span, signature FROM symbols
       WHERE file_id IN (${placeholders(slice.length)}) AND retired_at IS NULL ORDER BY file_id, line_start, qualified_name`,
      slice,
    );
    for (const r of rows) out.push({ fileId: r.file_id, qualifiedName: r.qualified_name, kind: r.kind, lineSpan: Number(r.span), signature: r.signature });
  }
  return out;
}

/** Live declarations of these files by qualified name (to map a copy's declaration onto the kept file's). */
export async function declarationIdsOfFiles(q: Queryable, fileIds: readonly string[]): Promise<Array<{ fileId: string; symbolId: string; qualifiedName: string }>> {
  const out: Array<{ fileId: string; symbolId: string; qualifiedName: string }> = [];
  for (let i = 0; i < fileIds.length; i += BATCH) {
    const slice = fileIds.slice(i, i + BATCH);
    const rows = await q.all<{ file_id: string; symbol_id: string; qualified_name: string }>(
      `SELECT file_id, symbol_id, qualified_name FROM symbols WHERE file_id IN (${placeholders(slice.length)}) AND retired_at IS NULL`,
      slice,
    );
    for (const r of rows) out.push({ fileId: r.file_id, symbolId: r.symbol_id, qualifiedName: r.qualified_name });
  }
  return out;
}

/** A usage of a name in a file whose path looks like a test's. */
export interface TestUsage {
  fileId: string;
  path: string;
  name: string;
  line: number;
}

/**
 * Usages of these exact names in files whose path holds `test` or `spec`
 * (the caller checks the path properly), at most `perName` of each.
 */
export async function usagesInTestLikeFiles(q: Queryable, projectIds: readonly string[], names: readonly string[], perName: number): Promise<TestUsage[]> {
  const out: TestUsage[] = [];
  for (const name of names) {
    for (const u of await usageSitesNamed(q, projectIds, name, perName, "AND (f.path LIKE '%test%' OR f.path LIKE '%spec%')")) {
      out.push({ fileId: u.fileId, path: u.path, name: u.name, line: u.line });
    }
  }
  return out;
}

/** How many imports and live declarations each of these files holds, with its path. */
export async function importAndDeclarationCounts(
  q: Queryable,
  fileIds: readonly string[],
): Promise<Map<string, { path: string; imports: number; declarations: number }>> {
  const out = new Map<string, { path: string; imports: number; declarations: number }>();
  for (let i = 0; i < fileIds.length; i += BATCH) {
    const slice = fileIds.slice(i, i + BATCH);
    const rows = await q.all<{ file_id: string; path: string; imports: number; declarations: number }>(
      `SELECT f.file_id, f.path,
         (SELECT count(DISTINCT i.specifier) FROM file_imports i WHERE i.file_rowid = f.rowid) AS imports,
         (SELECT count(*) FROM symbol_rows s WHERE s.file_rowid = f.rowid AND s.retired_at IS NULL) AS declarations
       FROM files f WHERE f.file_id IN (${placeholders(slice.length)}) AND f.status <> 'retired'`,
      slice,
    );
    for (const r of rows) out.set(r.file_id, { path: r.path, imports: Number(r.imports), declarations: Number(r.declarations) });
  }
  return out;
}

/** How many distinct live code files of these projects use each of these names (exact case), and how many code files there are. */
export async function usageFileCounts(q: Queryable, projectIds: readonly string[], names: readonly string[]): Promise<{ files: number; perName: Map<string, number> }> {
  const perName = new Map<string, number>();
  for (const name of names) {
    const row = await q.get<{ n: number }>(
      `SELECT count(DISTINCT file_rowid) AS n FROM code_reference_sites
       WHERE project_rowid IN ${projectRowids(projectIds.length)} AND folded = ? AND name = ? AND usage = 1`,
      [...projectIds, name.toLowerCase(), name],
    );
    perName.set(name, Number(row?.n ?? 0));
  }
  const total = await q.get<{ n: number }>(
    `SELECT count(DISTINCT file_rowid) AS n FROM file_module_keys WHERE project_rowid IN ${projectRowids(projectIds.length)} AND full = 1`,
    [...projectIds],
  );
  return { files: Number(total?.n ?? 0), perName };
}
