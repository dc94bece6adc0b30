/**
 * The `code_references` listing: identifier occurrences whose name starts
 * with the query (case-insensitive), then those whose name contains it,
 * each group alphabetical with declarations before usages of a name. Usages
 * are resolved to declarations as the page is read, so a declaring file
 * read after the using one is seen at once. A stable symbol id or a
 * qualified name (`Context.header`) lists that declaration and the usages
 * that resolve to it instead.
 */
import type { Scope } from "../../core/scope.js";
import type { Queryable } from "../../store/db.js";
import {
  countReferencesContaining,
  countReferencesWithPrefix,
  foldName,
  namesContaining,
  referencesNamed,
  referencesWithPrefix,
} from "../../store/code/code-references.js";
import type { CodeReferenceRow } from "../../store/code/code-references.js";
import { declarationsByIds } from "../../store/code/declaration-reads.js";
import type { CodeReferenceItem } from "../resources.js";
import { resolverFor } from "./resolve-sites.js";
import type { UsageResolver } from "./resolve-usage.js";

/** One listed row: the resource row and the file it is in. */
export interface ListedReference extends CodeReferenceItem {
  fileId: string;
}

/** One bounded page: its rows, how many rows match in all, and whether the page left some out. */
export interface CodeReferencesPage {
  references: ListedReference[];
  total: number;
  more: boolean;
}

/** A stable symbol id as `code_references` takes it (see `src/code/symbol-id.ts`). */
const SYMBOL_ID = /^sym_[A-Za-z0-9_-]{22}$/;
/** Occurrences of one name read to find a symbol's usages; past it `total` counts only these. */
const NAME_OCCURRENCES = 20_000;

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
 * One page of references of a project (and the projects it inherits from),
 * with the total count of matching rows, so a page cut at `limit` says so.
 * @param input `query` as typed (empty lists everything alphabetically); `limit` already clamped
 */
export async function listCodeReferences(
  q: Queryable,
  scope: Pick<Scope, "projectIds">,
  input: { query: string; limit: number },
): Promise<CodeReferencesPage> {
  const { projectIds } = scope;
  const query = input.query.trim();
  const symbolIds = await symbolsNamedBy(q, projectIds, query);
  if (symbolIds) return symbolReferences(q, projectIds, symbolIds, input.limit);
  const needle = foldName(query);
  const rows = await merged(projectIds, input.limit, (id) => referencesWithPrefix(q, id, needle, input.limit));
  if (needle !== "" && rows.length < input.limit) rows.push(...(await substringRows(q, projectIds, needle, input.limit - rows.length)));
  const counts = await Promise.all(
    projectIds.map(async (id) => (await countReferencesWithPrefix(q, id, needle)) + (needle === "" ? 0 : await countReferencesContaining(q, id, needle))),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const resolver = await resolverFor(q, projectIds, rows.filter((r) => r.kind === "usage"));
  return { references: rows.map((r) => listed(r, resolver)), total, more: total > rows.length };
}

/**
 * The declarations a query names exactly: a stable symbol id, or a
 * qualified name (`Context.header`, also written `Context::header` or
 * `Context#header`) matched case-insensitively against the whole qualified
 * name or its end. `undefined` when the query is neither, or names no live
 * declaration (it is then listed as a typed prefix).
 */
async function symbolsNamedBy(q: Queryable, projectIds: readonly string[], query: string): Promise<Set<string> | undefined> {
  if (SYMBOL_ID.test(query)) return new Set((await declarationsByIds(q, projectIds, [query])).map((d) => d.symbolId));
  const qualified = foldName(query.replace(/::|#/g, "."));
  const name = qualified.split(".").at(-1) ?? "";
  if (!qualified.includes(".") || name === "" || qualified.startsWith(".")) return undefined;
  const rows = await merged(projectIds, NAME_OCCURRENCES, (id) => referencesNamed(q, id, name, NAME_OCCURRENCES));
  const declared = rows.filter((r) => r.kind === "declaration" && r.symbolId !== null).map((r) => r.symbolId!);
  const found = (await declarationsByIds(q, projectIds, [...new Set(declared)])).filter((d) => {
    const full = foldName(d.qualifiedName);
    return full === qualified || full.endsWith(`.${qualified}`);
  });
  return found.length > 0 ? new Set(found.map((d) => d.symbolId)) : undefined;
}

/** The declarations of these symbols and the usages that resolve to them, in listing order. */
async function symbolReferences(q: Queryable, projectIds: readonly string[], symbolIds: Set<string>, limit: number): Promise<CodeReferencesPage> {
  if (symbolIds.size === 0) return { references: [], total: 0, more: false };
  const declarations = await declarationsByIds(q, projectIds, [...symbolIds]);
  const names = [...new Set(declarations.map((d) => foldName(d.name)))];
  const rows: CodeReferenceRow[] = [];
  let cut = false;
  for (const name of names) {
    const named = await merged(projectIds, NAME_OCCURRENCES, (id) => referencesNamed(q, id, name, NAME_OCCURRENCES));
    cut ||= named.length >= NAME_OCCURRENCES;
    rows.push(...named);
  }
  rows.sort(compareRows);
  const resolver = await resolverFor(q, projectIds, rows.filter((r) => r.kind === "usage"));
  const matching = rows.map((r) => listed(r, resolver)).filter((r) => r.symbolId !== null && symbolIds.has(r.symbolId));
  return { references: matching.slice(0, limit), total: matching.length, more: cut || matching.length > limit };
}

function listed(r: CodeReferenceRow, resolver: UsageResolver): ListedReference {
  const resolution = r.kind === "usage" ? resolver.resolve(r) : { symbolId: r.symbolId, ambiguous: false };
  return {
    symbol: r.name,
    kind: r.kind,
    filepath: r.path,
    fileId: r.fileId,
    lines: [r.lineStart, r.lineEnd],
    symbolId: resolution.symbolId,
    label: r.name,
    sublabel: r.path,
    ambiguous: resolution.ambiguous,
  };
}
