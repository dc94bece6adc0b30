import type { Queryable } from "../../store/db.js";
import { usagesNamed } from "../../store/code/code-graph-reads.js";
import { usageFileCounts } from "../../store/code/code-pack-reads.js";
import { declarationsAround } from "../../store/code/declaration-reads.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";

/** Declarations whose bodies use a name the task writes as code, per name. */
export interface BodyUses {
  /** Declaration → term (the name lower-cased) → worth, scaled so the best declaration's sum is 1. */
  termsOf: Map<string, Map<string, number>>;
  declarations: Map<string, DeclarationBrief>;
}

/** Names looked up: the task's code-shaped names, most telling first. */
const MAX_NAMES = 8;
/** Usage sites read per name. */
const SITES_PER_NAME = 40;
/** A name used in more than this share of the files says nothing about where. */
const MAX_FILE_SHARE = 0.2;

/** The innermost of these declarations holding `line`. */
function innermost(candidates: readonly DeclarationBrief[], line: number): DeclarationBrief | undefined {
  let best: DeclarationBrief | undefined;
  for (const c of candidates) {
    if (c.lineStart <= line && line <= c.lineEnd && (!best || c.depth > best.depth)) best = c;
  }
  return best;
}

/**
 * What bodies use: the declarations inside which a name the task writes as
 * code is called, read, thrown or constructed (usages in the reference
 * index), each name weighted by its rarity across files (IDF), so a body
 * that calls `parseConfigFile` or throws `TimeoutError` counts where only a
 * name match would have before.
 */
export async function bodyUses(q: Queryable, projectIds: readonly string[], identifiers: readonly string[]): Promise<BodyUses> {
  const names = [...new Set(identifiers)].slice(0, MAX_NAMES);
  const out: BodyUses = { termsOf: new Map(), declarations: new Map() };
  if (names.length === 0) return out;
  const counts = await usageFileCounts(q, projectIds, names);
  const idf = new Map<string, number>();
  for (const name of names) {
    const n = counts.perName.get(name) ?? 0;
    if (n > 0 && counts.files > 0 && n <= Math.max(3, MAX_FILE_SHARE * counts.files)) idf.set(name, Math.log(1 + counts.files / n));
  }
  if (idf.size === 0) return out;
  const sites = await usagesNamed(q, projectIds, [...idf.keys()], SITES_PER_NAME);
  const linesOf = new Map<string, number[]>();
  for (const s of sites) linesOf.set(s.fileId, [...(linesOf.get(s.fileId) ?? []), s.line]);
  const around = new Map<string, DeclarationBrief[]>();
  for (const [fileId, lines] of linesOf) around.set(fileId, await declarationsAround(q, fileId, [...new Set(lines)]));
  for (const s of sites) {
    const d = innermost(around.get(s.fileId) ?? [], s.line);
    if (!d) continue;
    out.declarations.set(d.symbolId, d);
    const own = out.termsOf.get(d.symbolId) ?? new Map<string, number>();
    own.set(s.name.toLowerCase(), idf.get(s.name) ?? 0);
    out.termsOf.set(d.symbolId, own);
  }
  const sums = [...out.termsOf.values()].map((own) => [...own.values()].reduce((a, b) => a + b, 0));
  const top = Math.max(0, ...sums);
  if (top > 0) for (const own of out.termsOf.values()) for (const [t, v] of own) own.set(t, v / top);
  return out;
}
