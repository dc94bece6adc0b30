import type { Queryable } from "../../store/db.js";
import { importEdgesOf, usagesInSpans, usagesNamed } from "../../store/code/code-graph-reads.js";
import type { UsageSite } from "../../store/code/code-graph-reads.js";
import { declarationsAround, declarationsByIds } from "../../store/code/declaration-reads.js";
import type { DeclarationBrief } from "../../store/code/declaration-reads.js";
import { resolveSites } from "../../graph/code/resolve-sites.js";
import type { WeightedEdge } from "../page-rank.js";

/** The neighbourhood of some declarations: who they use, who uses them, their files and the files' imports. */
export interface DeclarationGraph {
  edges: WeightedEdge[];
  /** Every declaration node of the graph. */
  declarations: Map<string, DeclarationBrief>;
  /** File nodes reached through an import edge only. */
  importedFiles: Set<string>;
}

/** Edge weights: a reference binds two declarations tighter than sharing a file or an import. */
const REFERENCE = 1;
const CONTAINS = 0.5;
const IMPORTS = 0.3;
/** Bounds that keep the neighbourhood cheap to read. */
const NAMES_PER_ANCHOR = 60;
const CALLERS_PER_NAME = 30;
const IMPORT_EDGES = 400;

/** Graph node ids. */
export const declarationNode = (symbolId: string) => `s:${symbolId}`;
export const fileNode = (fileId: string) => `f:${fileId}`;

/** The innermost declaration of `candidates` whose lines hold `line`. */
function innermost<T extends { lineStart: number; lineEnd: number; depth: number }>(candidates: readonly T[], line: number): T | undefined {
  let best: T | undefined;
  for (const c of candidates) {
    if (c.lineStart <= line && line <= c.lineEnd && (!best || c.depth > best.depth || (c.depth === best.depth && c.lineStart > best.lineStart))) best = c;
  }
  return best;
}

function byFile<T extends { fileId: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(r.fileId, [...(out.get(r.fileId) ?? []), r]);
  return out;
}

/** Usages inside each anchor's lines: one site per anchor and name. */
async function calleeEdges(q: Queryable, projectIds: readonly string[], anchors: readonly DeclarationBrief[]) {
  const anchorsOf = byFile(anchors);
  const sites: Array<UsageSite & { from: string }> = [];
  const seen = new Set<string>();
  const perAnchor = new Map<string, number>();
  for (const u of await usagesInSpans(q, anchors)) {
    const owner = innermost(anchorsOf.get(u.fileId) ?? [], u.line);
    if (!owner || seen.has(`${owner.symbolId}\u0000${u.name}`)) continue;
    const n = perAnchor.get(owner.symbolId) ?? 0;
    if (n >= NAMES_PER_ANCHOR) continue;
    perAnchor.set(owner.symbolId, n + 1);
    seen.add(`${owner.symbolId}\u0000${u.name}`);
    sites.push({ ...u, from: owner.symbolId });
  }
  const targets = await resolveSites(q, projectIds, sites);
  return sites.flatMap((s, i) => (targets[i] && targets[i] !== s.from ? [{ from: s.from, to: targets[i]! }] : []));
}

/** Usages elsewhere that resolve to an anchor, attributed to the declaration (or file) they sit in. */
async function callerEdges(q: Queryable, projectIds: readonly string[], anchors: readonly DeclarationBrief[]) {
  const sites = await usagesNamed(q, projectIds, [...new Set(anchors.map((a) => a.name))], CALLERS_PER_NAME);
  const targets = await resolveSites(q, projectIds, sites);
  const anchorIds = new Set(anchors.map((a) => a.symbolId));
  const hits = sites.flatMap((s, i) => (targets[i] && anchorIds.has(targets[i]!) ? [{ site: s, to: targets[i]! }] : []));
  const declared = new Map<string, DeclarationBrief[]>();
  for (const [fileId, list] of byFile(hits.map((h) => h.site))) {
    declared.set(fileId, await declarationsAround(q, fileId, [...new Set(list.map((s) => s.line))]));
  }
  return hits.map((h) => {
    const owner = innermost(declared.get(h.site.fileId) ?? [], h.site.line);
    return owner ? { from: declarationNode(owner.symbolId), brief: owner, to: h.to } : { from: fileNode(h.site.fileId), to: h.to };
  });
}

/**
 * Reads the graph around `anchors`: reference edges both ways (usages
 * resolved to declarations), each declaration tied to its file, and the
 * import edges of the anchors' files and of `moreFiles`.
 */
export async function declarationGraph(
  q: Queryable,
  projectIds: readonly string[],
  anchors: readonly DeclarationBrief[],
  moreFiles: readonly string[] = [],
): Promise<DeclarationGraph> {
  const declarations = new Map(anchors.map((a) => [a.symbolId, a]));
  const edges: WeightedEdge[] = [];
  const callees = await calleeEdges(q, projectIds, anchors);
  for (const c of callees) edges.push({ a: declarationNode(c.from), b: declarationNode(c.to), weight: REFERENCE });
  for (const c of await callerEdges(q, projectIds, anchors)) {
    if (c.brief) declarations.set(c.brief.symbolId, c.brief);
    edges.push({ a: c.from, b: declarationNode(c.to), weight: REFERENCE });
  }
  const missing = [...new Set(callees.map((c) => c.to))].filter((id) => !declarations.has(id));
  for (const d of await declarationsByIds(q, projectIds, missing)) declarations.set(d.symbolId, d);
  for (const d of declarations.values()) edges.push({ a: declarationNode(d.symbolId), b: fileNode(d.fileId), weight: CONTAINS });
  const known = new Set([...declarations.values()].map((d) => d.fileId));
  const importedFiles = new Set<string>();
  for (const e of await importEdgesOf(q, [...new Set([...anchors.map((a) => a.fileId), ...moreFiles])], IMPORT_EDGES)) {
    edges.push({ a: fileNode(e.fromFileId), b: fileNode(e.toFileId), weight: IMPORTS });
    for (const f of [e.fromFileId, e.toFileId]) if (!known.has(f)) importedFiles.add(f);
  }
  return { edges, declarations, importedFiles };
}
