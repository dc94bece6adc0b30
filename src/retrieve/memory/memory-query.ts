import type { Queryable } from "../../store/db.js";
import { cellBriefs, entitiesNamed, entityBriefs, linksOfCells, linksOfEntities } from "../../store/graph/graph-neighbors.js";
import type { EntityBrief, Link } from "../../store/graph/graph-neighbors.js";
import { bestCellsOfFiles, searchCells, searchFiles } from "../../store/search/lexical-search.js";
import type { CellHit } from "../../store/search/lexical-search.js";
import { packRows } from "../pack-rows.js";
import { weightedPageRank } from "../page-rank.js";
import { ftsAnyOf, queryNgrams, queryTerms } from "../query-terms.js";
import { dropRedundant, fuseCells } from "./rank-cells.js";
import { relatedArtifacts } from "./related-artifacts.js";
import type { FusionWeights, RankedCell } from "./rank-cells.js";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";

export interface MemoryQueryRequest {
  query: string;
  budget: number;
  fileIds?: string[] | undefined;
  /** Entity names seeded into the walk beside those the query names. */
  entities?: string[] | undefined;
  weights?: FusionWeights | undefined;
}

export interface MemoryQueryAnswer {
  query: string;
  cells: Array<{ cellId: string; text: string }>;
  entities: Array<{ entityId: string; kind: string; name: string }>;
  artifacts: Array<{ artifactId: string; title: string }>;
  budget: number;
  used: number;
}

/** Candidate pool sizes: wide enough for recall, bounded for latency. */
const CELL_POOL = 400;
const FILE_POOL = 200;
const WALK_CELLS = 100;

type Row =
  | { t: "cell"; cellId: string; text: string }
  | { t: "entity"; entityId: string; kind: string; name: string }
  | { t: "artifact"; artifactId: string; title: string };

/**
 * Ranked retrieval packed to a token budget: BM25 over cells and over whole
 * documents, entities the query names (plus `entities`) seeding a walk of
 * the cell–entity graph, fused, de-duplicated and packed greedily. The
 * project's artifacts whose title or purpose the question matches are rows
 * of the same packing, after the named entities, so they count in `used`.
 */
export async function memoryQuery(
  q: Queryable,
  scope: Pick<Scope, "projectIds">,
  req: MemoryQueryRequest,
  tools: Pick<Tools, "tokens">,
): Promise<MemoryQueryAnswer> {
  const { projectIds } = scope;
  const count = tools.tokens;
  const ranked = await rankCells(q, projectIds, req);
  const seeds = ranked.seeds;
  const related = await relatedEntities(q, ranked.cells.slice(0, 30).map((c) => c.cellId), ranked.walkEntities, seeds);
  const artifacts = await relatedArtifacts(q, projectIds[0]!, req.query);
  const rows: Row[] = [
    ...seeds.map((e) => ({ t: "entity" as const, ...e })),
    ...artifacts.map((a) => ({ t: "artifact" as const, ...a })),
    ...ranked.cells.map((c) => ({ t: "cell" as const, cellId: c.cellId, text: c.text })),
    ...related.map((e) => ({ t: "entity" as const, ...e })),
  ];
  const packed = packRows(rows, req.budget, count, (r) => JSON.stringify(shape(req.query, r)));
  return { ...shape(req.query, packed.rows), budget: req.budget, used: packed.used };
}

function shape(query: string, rows: Row[]) {
  return {
    query,
    cells: rows.flatMap((r) => (r.t === "cell" ? [{ cellId: r.cellId, text: r.text }] : [])),
    entities: rows.flatMap((r) => (r.t === "entity" ? [{ entityId: r.entityId, kind: r.kind, name: r.name }] : [])),
    artifacts: rows.flatMap((r) => (r.t === "artifact" ? [{ artifactId: r.artifactId, title: r.title }] : [])),
  };
}

/** The fused cell ranking of a query (also used by the evaluation). */
export async function rankCells(
  q: Queryable,
  projectIds: string[],
  req: Pick<MemoryQueryRequest, "query" | "fileIds" | "entities" | "weights">,
): Promise<{ cells: RankedCell[]; walkEntities: Map<string, number>; seeds: EntityBrief[] }> {
  const seeds = await seedEntities(q, projectIds, req);
  const terms = queryTerms(req.query);
  if (terms.length === 0) return { cells: [], walkEntities: new Map(), seeds };
  const match = ftsAnyOf(terms);
  const [hits, files] = await Promise.all([
    searchCells(q, projectIds, match, CELL_POOL, req.fileIds),
    searchFiles(q, projectIds, match, FILE_POOL, req.fileIds),
  ]);
  const seen = new Set(hits.map((h) => h.fileId));
  const docCells = await bestCellsOfFiles(q, match, files.filter((f) => !seen.has(f.fileId)).slice(0, 100).map((f) => f.fileId), 2);
  const walk = await walkFrom(q, seeds.map((s) => s.entityId), req.fileIds);
  const pool: CellHit[] = [...hits, ...docCells, ...walk.extra];
  return { cells: dropRedundant(fuseCells(pool, files, walk.scores.cells, req.weights)), walkEntities: walk.scores.entities, seeds };
}

async function seedEntities(q: Queryable, projectIds: string[], req: Pick<MemoryQueryRequest, "query" | "entities">): Promise<EntityBrief[]> {
  const names = [...queryNgrams(req.query), ...(req.entities ?? []).map((e) => e.toLowerCase().trim())].filter(Boolean);
  return entitiesNamed(q, projectIds, [...new Set(names)]);
}

async function walkFrom(q: Queryable, seedIds: string[], fileIds?: string[]) {
  if (seedIds.length === 0) return { scores: { cells: new Map<string, number>(), entities: new Map<string, number>() }, extra: [] as CellHit[] };
  const first = await linksOfEntities(q, seedIds, 200);
  const second = await linksOfCells(q, [...new Set(first.map((l) => l.cellId))].slice(0, 500));
  const links: Link[] = [...first, ...second];
  const scores = walkLinks(links, seedIds);
  const top = [...scores.cells.entries()].sort((a, b) => b[1] - a[1]).slice(0, WALK_CELLS).map(([id]) => id);
  const allowed = fileIds?.length ? new Set(fileIds) : undefined;
  const extra = (await cellBriefs(q, top)).filter((c) => !allowed || allowed.has(c.fileId)).map((c) => ({ ...c, score: 0 }));
  return { scores, extra };
}

/**
 * Personalized PageRank from the seed entities over the bipartite cell–entity
 * graph, each link an edge of weight 1 (a link listed twice counts twice).
 * Seeds no link touches take no share of the restart.
 */
function walkLinks(links: readonly Link[], seedIds: readonly string[]): { cells: Map<string, number>; entities: Map<string, number> } {
  const edges = links.map((l) => ({ a: `c:${l.cellId}`, b: `e:${l.entityId}`, weight: 1 }));
  const linked = new Set(links.map((l) => l.entityId));
  const rank = weightedPageRank(edges, new Map(seedIds.filter((id) => linked.has(id)).map((id) => [`e:${id}`, 1])));
  const cells = new Map<string, number>();
  const entities = new Map<string, number>();
  for (const [node, score] of rank) (node.startsWith("c:") ? cells : entities).set(node.slice(2), score);
  return { cells, entities };
}

/** Entities the walk reached or the top cells name, best first, seeds excluded. */
async function relatedEntities(q: Queryable, topCells: string[], walk: Map<string, number>, seeds: EntityBrief[]): Promise<EntityBrief[]> {
  const weight = new Map<string, number>();
  for (const [id, v] of walk) weight.set(id, v);
  for (const l of await linksOfCells(q, topCells)) weight.set(l.entityId, (weight.get(l.entityId) ?? 0) + 0.01);
  for (const s of seeds) weight.delete(s.entityId);
  const ids = [...weight.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([id]) => id);
  const briefs = new Map((await entityBriefs(q, ids)).map((e) => [e.entityId, e]));
  return ids.flatMap((id) => (briefs.has(id) ? [briefs.get(id)!] : []));
}
