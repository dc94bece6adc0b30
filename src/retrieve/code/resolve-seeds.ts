import type { Queryable } from "../../store/db.js";
import { filesByKeys, filesByPaths } from "../../store/code/code-graph-reads.js";
import type { KeyedFile } from "../../store/code/code-graph-reads.js";
import { declarationsByIds, declarationsNamed } from "../../store/code/declaration-reads.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";

/** What the caller already has in context. */
export interface Seeds {
  declarations: DeclarationBrief[];
  files: KeyedFile[];
}

/** Declarations one seed name may stand for before it is too vague to steer anything. */
const MAX_PER_NAME = 20;
/** Files a path's end may stand for before it is too vague (`index.ts`). */
const MAX_FILES_PER_KEY = 3;

/** Entries of a comma- or newline-separated list, trimmed, empty ones and repeats dropped. */
export function seedList(raw: string | undefined): string[] {
  return [...new Set((raw ?? "").split(/[,\n]/).map((s) => s.trim()).filter(Boolean))];
}

/**
 * Seed symbols by stable id (`sym_…`), qualified name (`Session.send`) or
 * name (`send`); a name shared by too many declarations is ignored.
 */
async function seedDeclarations(q: Queryable, projectIds: readonly string[], entries: readonly string[]): Promise<DeclarationBrief[]> {
  const ids = entries.filter((e) => /^sym_[\w-]+$/.test(e));
  const named = entries.filter((e) => !ids.includes(e));
  const byId = await declarationsByIds(q, projectIds, ids);
  const candidates = await declarationsNamed(q, projectIds, [...new Set(named.map((e) => e.split(".").at(-1) ?? e))]);
  const out = new Map(byId.map((d) => [d.symbolId, d]));
  for (const entry of named) {
    const matches = candidates.filter((d) => d.qualifiedName === entry || d.qualifiedName.endsWith(`.${entry}`) || d.name === entry);
    if (matches.length <= MAX_PER_NAME) for (const d of matches) out.set(d.symbolId, d);
  }
  return [...out.values()];
}

/** Seed files by project path, else by the path's end (`app.ts`, `src/app`). */
async function seedFiles(q: Queryable, projectIds: readonly string[], entries: readonly string[]): Promise<KeyedFile[]> {
  const paths = entries.map((e) => e.replace(/\\/g, "/").replace(/^\.\//, ""));
  const exact = await filesByPaths(q, projectIds, paths);
  const found = new Set(exact.map((f) => f.path));
  const rest = paths.filter((p) => !found.has(p)).map((p) => p.toLowerCase());
  const keyed = await filesByKeys(q, projectIds, rest);
  const perKey = new Map<string, number>();
  for (const f of keyed) perKey.set(f.key, (perKey.get(f.key) ?? 0) + 1);
  const clear = keyed.filter((f) => (perKey.get(f.key) ?? 0) <= MAX_FILES_PER_KEY);
  const out = new Map([...exact, ...clear].map((f) => [f.fileId, f]));
  return [...out.values()];
}

/** Resolves `seedSymbols` and `seedFiles` to live declarations and files; unknown entries are ignored. */
export async function resolveSeeds(
  q: Queryable,
  projectIds: readonly string[],
  input: { seedSymbols?: string | undefined; seedFiles?: string | undefined },
): Promise<Seeds> {
  const [declarations, files] = await Promise.all([
    seedDeclarations(q, projectIds, seedList(input.seedSymbols)),
    seedFiles(q, projectIds, seedList(input.seedFiles)),
  ]);
  return { declarations, files };
}
