import type { Queryable } from "../../store/db.js";
import type { UsageSite } from "../../store/code/code-graph-reads.js";
import { importBindings } from "../../store/code/file-imports.js";
import { liveDefaultExports, liveSymbolsNamed } from "../../store/code/symbols.js";
import { UsageResolver } from "./resolve-usage.js";

/**
 * A resolver for usages in the given files: the files' import bindings, the
 * live declarations of every name they could mean, and the default exports
 * their imports reach.
 */
export async function resolverFor(
  q: Queryable,
  projectIds: readonly string[],
  sites: ReadonlyArray<Pick<UsageSite, "fileId" | "name">>,
): Promise<UsageResolver> {
  if (sites.length === 0) return new UsageResolver([], []);
  const fileIds = [...new Set(sites.map((s) => s.fileId))];
  const localNames = [...new Set(sites.map((s) => s.name))];
  const bindings = await importBindings(q, fileIds, localNames);
  const names = [...new Set([...localNames, ...bindings.map((b) => b.importedName)])];
  const defaultTargets = [...new Set(bindings.filter((b) => b.importedName === "default").flatMap((b) => b.targetFileIds))];
  const defaults = defaultTargets.length > 0 ? await liveDefaultExports(q, defaultTargets) : [];
  return new UsageResolver(bindings, await liveSymbolsNamed(q, projectIds, names), defaults);
}

/**
 * The declaration each usage names (through the file's imports, else its
 * own declarations, else the project), or null when unresolved or
 * ambiguous; in the order of `sites`.
 */
export async function resolveSites(q: Queryable, projectIds: readonly string[], sites: readonly UsageSite[]): Promise<Array<string | null>> {
  if (sites.length === 0) return [];
  const resolver = await resolverFor(q, projectIds, sites);
  return sites.map((s) => resolver.resolve(s).symbolId);
}
