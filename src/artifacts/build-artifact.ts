/**
 * Builds an artifact with no model: `memory_query`'s cell ranking for the
 * purpose, the live cells it found (near-duplicates dropped), each placed
 * under its leading entity and its source section, packed to the budget.
 */
import type { Tools } from "../core/tools.js";
import { rankCells } from "../retrieve/memory/memory-query.js";
import { citableCells } from "../store/artifacts/artifacts.js";
import type { CitableCell } from "../store/artifacts/artifacts.js";
import type { Queryable } from "../store/db.js";
import { corpusVersion, projectLineage } from "../store/access/projects.js";
import { entityBriefs, linksOfCells } from "../store/graph/graph-neighbors.js";
import type { EntityBrief } from "../store/graph/graph-neighbors.js";
import { dropNearDuplicates, packBody } from "./compose-body.js";
import type { Body, BodyHeader, Claim } from "./compose-body.js";

/** Ranked cells considered: far more than a body of the default budget holds. */
export const MAX_CANDIDATES = 200;
/** Entity headings at most; claims of other entities go under their section in `Other`. */
export const MAX_ENTITY_GROUPS = 8;

/** The ranked, grouped claims an artifact may cite, and the corpus version they were ranked at. */
export interface Selection {
  claims: Claim[];
  corpusVersion: number;
}

/**
 * Ranks the project's cells (and its ancestors') for the purpose exactly as
 * `memory_query` does, and returns the live ones as claims in rank order,
 * near-duplicates and heading cells dropped, each with its entity and
 * section heading.
 */
export async function selectClaims(q: Queryable, projectId: string, purpose: string): Promise<Selection> {
  const version = await corpusVersion(q, projectId);
  const projectIds = await projectLineage(q, projectId);
  const ranked = await rankCells(q, projectIds, { query: purpose });
  const pool = ranked.cells.slice(0, MAX_CANDIDATES);
  const meta = new Map((await citableCells(q, pool.map((c) => c.cellId))).map((c) => [c.cellId, c]));
  const live = pool.flatMap((c) => {
    const m = meta.get(c.cellId);
    // A heading cell names its section, which the body shows as a heading already.
    return m && m.factionType !== "heading" && m.text.trim() ? [m] : [];
  });
  const distinct = dropNearDuplicates(live);
  const entityOf = await leadingEntities(q, distinct.map((c) => c.cellId), ranked.seeds);
  return {
    claims: distinct.map((c) => ({
      cellId: c.cellId,
      text: c.text,
      entity: entityOf.get(c.cellId) ?? null,
      section: sectionOf(c),
      position: [c.factionOrdinal, c.cellOrdinal] as const,
    })),
    corpusVersion: version,
  };
}

/** A claim's source section: its file's path and the headings above it. */
export function sectionOf(c: Pick<CitableCell, "path" | "headingPath">): string {
  return [c.path, ...c.headingPath.map((h) => h.trim()).filter(Boolean)].join(" › ");
}

/**
 * The entity each cell is grouped under. Entities the purpose names (the
 * ranking's seeds) lead; then entities linked to at least two of the cells,
 * the most linked first; at most {@link MAX_ENTITY_GROUPS}. A cell goes
 * under the first of these it is linked to; a cell linked to none, under
 * none.
 */
async function leadingEntities(q: Queryable, cellIds: string[], seeds: readonly EntityBrief[]): Promise<Map<string, string>> {
  const links = await linksOfCells(q, cellIds);
  const linked = new Map<string, number>();
  for (const l of links) linked.set(l.entityId, (linked.get(l.entityId) ?? 0) + 1);
  const seedIds = seeds.map((s) => s.entityId).filter((id) => linked.has(id));
  const others = [...linked.entries()]
    .filter(([id, n]) => n >= 2 && !seedIds.includes(id))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id]) => id);
  const leading = [...new Set([...seedIds, ...others])].slice(0, MAX_ENTITY_GROUPS);
  const order = new Map(leading.map((id, i) => [id, i]));
  const names = new Map((await entityBriefs(q, leading)).map((e) => [e.entityId, e.name]));
  const best = new Map<string, string>();
  for (const l of links) {
    const rank = order.get(l.entityId);
    if (rank === undefined || !names.has(l.entityId)) continue;
    const current = best.get(l.cellId);
    if (current === undefined || rank < order.get(current)!) best.set(l.cellId, l.entityId);
  }
  return new Map([...best].map(([cellId, entityId]) => [cellId, names.get(entityId)!]));
}

/** The header and budget a body is composed for. */
export interface Composition extends BodyHeader {
  budget: number;
}

/** Composes the body of the chosen claims within the budget (see `packBody`). */
export function composeBody(c: Composition, claims: readonly Claim[], tools: Pick<Tools, "tokens">): Body & { used: number } {
  return packBody({ title: c.title, purpose: c.purpose, kind: c.kind }, claims, c.budget, tools.tokens);
}
