/**
 * The `code_references` listing: identifier occurrences whose name starts
 * with the query (case-insensitive), then those whose name contains it,
 * each group alphabetical with declarations before usages of a name. Usages
 * are resolved to declarations as the page is read, so a declaring file
 * read after the using one is seen at once.
 */
import type { Scope } from "../../core/scope.js";
import type { Queryable } from "../../store/db.js";
import { foldName, namesContaining, referencesNamed, referencesWithPrefix } from "../../store/code/code-references.js";
import type { CodeReferenceRow } from "../../store/code/code-references.js";
import type { CodeReferenceItem } from "../resources.js";
import { resolverFor } from "./resolve-sites.js";

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

/**
 * One page of references of a project (and the projects it inherits from).
 * @param input `query` as typed (empty lists everything alphabetically); `limit` already clamped
 */
export async function listCodeReferences(
  q: Queryable,
  scope: Pick<Scope, "projectIds">,
  input: { query: string; limit: number },
): Promise<CodeReferenceItem[]> {
  const { projectIds } = scope;
  const needle = foldName(input.query.trim());
  const rows = await merged(projectIds, input.limit, (id) => referencesWithPrefix(q, id, needle, input.limit));
  if (needle !== "" && rows.length < input.limit) rows.push(...(await substringRows(q, projectIds, needle, input.limit - rows.length)));
  const resolver = await resolverFor(q, projectIds, rows.filter((r) => r.kind === "usage"));
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
