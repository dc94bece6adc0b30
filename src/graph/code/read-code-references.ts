/**
 * The `code_references` listing: identifier occurrences whose name starts
 * with the query (case-insensitive), then those whose name contains it,
 * each group alphabetical with declarations before usages of a name. Usages
 * are resolved to declarations as the page is read, so a declaring file
 * read after the using one is seen at once.
 */
import type { ServiceDeps } from "../../core/deps.js";
import type { Queryable } from "../../store/db.js";
import { foldName, namesContaining, referencesNamed, referencesWithPrefix } from "../../store/code/code-references.js";
import type { CodeReferenceRow } from "../../store/code/code-references.js";
import { importBindings } from "../../store/code/file-imports.js";
import { projectLineage } from "../../store/access/projects.js";
import { liveDefaultExports, liveSymbolsNamed } from "../../store/code/symbols.js";
import { UsageResolver } from "./resolve-usage.js";

/** One row of the listing, as served. */
export interface CodeReferenceItem {
  symbol: string;
  kind: "declaration" | "usage";
  /** The file's project path. */
  filepath: string;
  lines: [number, number];
  /** The declared symbol, or the one a usage resolves to (null when unresolved or ambiguous). */
  symbolId: string | null;
  label: string;
  sublabel: string;
  /** True when several declarations could be the one a usage names. */
  ambiguous: boolean;
}

function compareRows(a: CodeReferenceRow, b: CodeReferenceRow): number {
  const keys: Array<keyof CodeReferenceRow> = ["folded", "name", "kind", "path", "lineStart", "nameCol"];
  for (const key of keys) {
    const x = a[key] ?? "";
    const y = b[key] ?? "";
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Runs a per-project read for each project of the lineage and merges the pages in listing order. */
async function merged(projectIds: readonly string[], limit: number, read: (projectId: string) => Promise<CodeReferenceRow[]>) {
  const pages = await Promise.all(projectIds.map(read));
  return pages.flat().sort(compareRows).slice(0, limit);
}

async function substringRows(q: Queryable, projectIds: readonly string[], needle: string, limit: number): Promise<CodeReferenceRow[]> {
  const perProject = await Promise.all(projectIds.map((id) => namesContaining(q, id, needle, limit)));
  const names = [...new Set(perProject.flat())].sort().slice(0, limit);
  const rows: CodeReferenceRow[] = [];
  for (const name of names) {
    if (rows.length >= limit) break;
    const left = limit - rows.length;
    rows.push(...(await merged(projectIds, left, (id) => referencesNamed(q, id, name, left))));
  }
  return rows;
}

async function resolveUsages(q: Queryable, projectIds: readonly string[], rows: readonly CodeReferenceRow[]) {
  const usages = rows.filter((r) => r.kind === "usage");
  if (usages.length === 0) return new UsageResolver([], []);
  const fileIds = [...new Set(usages.map((r) => r.fileId))];
  const localNames = [...new Set(usages.map((r) => r.name))];
  const bindings = await importBindings(q, fileIds, localNames);
  const names = [...new Set([...localNames, ...bindings.map((b) => b.importedName)])];
  const defaultTargets = [...new Set(bindings.filter((b) => b.importedName === "default").flatMap((b) => b.targetFileIds))];
  const defaults = defaultTargets.length > 0 ? await liveDefaultExports(q, defaultTargets) : [];
  return new UsageResolver(bindings, await liveSymbolsNamed(q, projectIds, names), defaults);
}

/**
 * One page of references of a project (and the projects it inherits from).
 * @param input `query` as typed (empty lists everything alphabetically); `limit` already clamped
 */
export async function listCodeReferences(
  deps: ServiceDeps,
  projectId: string,
  input: { query: string; limit: number },
): Promise<CodeReferenceItem[]> {
  const q = deps.db;
  const projectIds = await projectLineage(q, projectId);
  const needle = foldName(input.query.trim());
  const rows = await merged(projectIds, input.limit, (id) => referencesWithPrefix(q, id, needle, input.limit));
  if (needle !== "" && rows.length < input.limit) rows.push(...(await substringRows(q, projectIds, needle, input.limit - rows.length)));
  const resolver = await resolveUsages(q, projectIds, rows);
  return rows.map((r) => {
    const resolution = r.kind === "usage" ? resolver.resolve(r) : { symbolId: r.symbolId, ambiguous: false };
    return {
      symbol: r.name,
      kind: r.kind,
      filepath: r.path,
      lines: [r.lineStart, r.lineEnd],
      symbolId: resolution.symbolId,
      label: r.name,
      sublabel: r.path,
      ambiguous: resolution.ambiguous,
    };
  });
}
