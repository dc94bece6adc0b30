import type { Queryable } from "../../store/db.js";
import { cellBriefs, entitiesNamed, entityBriefs, linksOfCells, linksOfEntities } from "../../store/graph/graph-neighbors.js";
import type { EntityBrief, Link } from "../../store/graph/graph-neighbors.js";
import { cellSources, entitiesInFiles, symbolEntityPaths } from "../../store/graph/answer-sources.js";
import type { SourceSpan } from "../../store/graph/source-span.js";
import { searchCellPool, searchFiles } from "../../store/search/lexical-search.js";
import type { CellHit, FileHit } from "../../store/search/lexical-search.js";
import { sharingSearches } from "../../store/search/shared-searches.js";
import { packRows } from "../pack-rows.js";
import type { Packed } from "../pack-rows.js";
import { weightedPageRank } from "../page-rank.js";
import { ftsAnyOf, identifierParts, queryNgrams, queryTerms } from "../query-terms.js";
import { maxRowsAt, rankDeclarations } from "./code-rows.js";
import { MIN_FILES, rankFiles } from "../code/rank-files.js";
import { FILE_CUT, relevanceCut } from "../code/relevance-cut.js";
import { DEFAULT_FEEDBACK, feedbackTerms } from "./feedback-terms.js";
import type { FeedbackDocument, FeedbackOptions } from "./feedback-terms.js";
import type { AnswerDeclaration } from "./code-rows.js";
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

/**
 * A cell of an answer with its source: the file it was read from (id and
 * project path) and its faction's span, only the keys that apply
 * (`lineStart`/`lineEnd`, `pdfPageStart`/`pdfPageEnd`, `audioStartMs`/`videoStartMs`).
 */
export type AnswerCell = { cellId: string; text: string; fileId: string; filepath: string } & SourceSpan;

/** An entity of an answer: a symbol also names the project path of the file declaring it. */
export interface AnswerEntity {
  entityId: string;
  kind: string;
  name: string;
  filepath?: string;
}

export type { AnswerDeclaration } from "./code-rows.js";

/** A file to open for the question: the ranked list shared with code_context_pack (rank-files.ts). */
export interface AnswerFile {
  fileId: string;
  filepath: string;
}

export interface MemoryQueryAnswer {
  query: string;
  cells: AnswerCell[];
  entities: AnswerEntity[];
  artifacts: Array<{ artifactId: string; title: string }>;
  /** Code declarations answering the question (see code-rows.ts), their own cells left out of `cells`. */
  declarations: AnswerDeclaration[];
  /** The files an agent should open, best first (the one file ranking of code questions). */
  files: AnswerFile[];
  budget: number;
  used: number;
}

/** Candidate pool sizes: wide enough for recall, bounded for latency. */
const CELL_POOL = 400;
const FILE_POOL = 200;
const WALK_CELLS = 100;

/**
 * Cells whose source is looked up: more than any budget can hold, since a
 * cell row with its ids and path costs well over 16 tokens and packing
 * passes over at most 50 rows that do not fit.
 */
const sourcedCells = (budget: number) => Math.ceil(budget / 16) + 64;

type Row =
  | ({ t: "cell" } & AnswerCell)
  | ({ t: "entity" } & AnswerEntity)
  | { t: "artifact"; artifactId: string; title: string }
  | ({ t: "declaration" } & AnswerDeclaration)
  | ({ t: "file" } & AnswerFile);

/** Symbols a query names are listed (and walked from) only when their name names at most this many: `router` naming a dozen variables names none of them. */
const MAX_SAME_NAME = 3;

/**
 * Ranked retrieval packed to a token budget: BM25 over cells and over whole
 * documents, entities the query names (plus `entities`) seeding a walk of
 * the cell–entity graph, fused, de-duplicated and packed greedily. The
 * project's artifacts whose title or purpose the question matches are rows
 * of the same packing, after the named entities, so they count in `used`.
 * Code declarations answering the question (code-rows.ts) alternate with
 * the cells, their own cells left out of `cells`.
 * Each cell row carries its source (file and span) and a symbol its file,
 * counted too; `fileIds` keeps only rows derived from those files, of
 * every kind.
 */
export async function memoryQuery(
  db: Queryable,
  scope: Pick<Scope, "projectIds">,
  req: MemoryQueryRequest,
  tools: Pick<Tools, "tokens">,
): Promise<MemoryQueryAnswer> {
  // The file ranking searches a short question's expression as the cell and declaration rankings do: once for all
  // (files at the cell ranking's pool, of which the file ranking takes the first part).
  const q = sharingSearches(db, { files: FILE_POOL });
  const { projectIds } = scope;
  const count = tools.tokens;
  const [ranked, declarations, files] = await Promise.all([
    rankCells(q, projectIds, req),
    rankDeclarations(q, projectIds, queryTerms(req.query), req.fileIds, maxRowsAt(req.budget)),
    answerFiles(q, projectIds, req),
  ]);
  const seeds = ranked.seeds;
  const related = await relatedEntities(q, ranked.cells.slice(0, 30).map((c) => c.cellId), ranked.walkEntities, seeds, req.fileIds);
  const artifacts = await relatedArtifacts(q, projectIds[0]!, req.query, req.fileIds);
  const declared = new Set(declarations.flatMap((d) => (d.cellId ? [d.cellId] : [])));
  const candidates = ranked.cells.filter((c) => !declared.has(c.cellId)).slice(0, sourcedCells(req.budget));
  const entities = await withFiles(q, [...seeds, ...related]);
  const declarationRows = declarations.map(({ cellId: _cell, ...d }) => ({ t: "declaration" as const, ...d }));
  const leadRows: Row[] = [
    ...entities.slice(0, seeds.length).map((e) => ({ t: "entity" as const, ...e })),
    ...artifacts.map((a) => ({ t: "artifact" as const, ...a })),
  ];
  const tailRows = entities.slice(seeds.length).map((e) => ({ t: "entity" as const, ...e }));
  const rowsWith = (cells: ReadonlyArray<{ t: "cell" } & AnswerCell>): Row[] => [
    ...leadRows,
    ...interleave(declarationRows, cells, cellLeads(req.query, declarations[0], cells[0])),
    ...tailRows,
  ];
  const serialize = (r: Row[]) => JSON.stringify(shape(req.query, r));
  const fileRows = files.map((f) => ({ t: "file" as const, ...f }));
  const reserve = Math.min(count(JSON.stringify(files)), Math.floor(req.budget * FILE_SHARE));
  const costs = new Map<Row, number>();
  const headBudget = Math.max(count(serialize([])), req.budget - reserve);
  const head = await packedHead(q, candidates, rowsWith, (rows) => packRows(rows, headBudget, count, serialize, { costs, exact: false }));
  const packed = packRows([...head.rows, ...fileRows], req.budget, count, serialize, { costs });
  return { ...shape(req.query, packed.rows), budget: req.budget, used: packed.used };
}

/** Most of the budget the file list may keep from the other rows: a quarter, as in code_context_pack. */
const FILE_SHARE = 0.25;

/**
 * The files an agent should open for the question, best first, by the one
 * file ranking of code questions (rank-files.ts): at least
 * {@link MIN_FILES} when the corpus has them, more while relevance holds;
 * with `fileIds`, only those files.
 */
async function answerFiles(q: Queryable, projectIds: string[], req: Pick<MemoryQueryRequest, "query" | "fileIds">): Promise<AnswerFile[]> {
  const allowed = req.fileIds?.length ? new Set(req.fileIds) : undefined;
  const ranked = (await rankFiles(q, projectIds, req.query)).filter((f) => !allowed || allowed.has(f.fileId));
  const kept = relevanceCut(ranked, FILE_CUT).length;
  return ranked.slice(0, Math.max(kept, MIN_FILES)).map((f) => ({ fileId: f.fileId, filepath: f.path }));
}

/**
 * Declarations and cells alternately (`bFirst`: the second list leads), each list in its own rank order: a
 * code question's declarations and a prose question's claims both reach
 * the head of the packing, whichever list the question is better answered
 * by, and neither can take the whole budget while the other has rows.
 */
function interleave<A, B>(a: readonly A[], b: readonly B[], bFirst = false): Array<A | B> {
  const out: Array<A | B> = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (bFirst && i < b.length) out.push(b[i]!);
    if (i < a.length) out.push(a[i]!);
    if (!bFirst && i < b.length) out.push(b[i]!);
  }
  return out;
}

/** A word's leading letters, as far as a plural, tense or `-ing` ending leaves them (retried, retry → retr). */
const wordRoot = (w: string) => w.slice(0, Math.max(4, w.length - 3));

/** The share of the question's terms a text holds, a term matching a word of the same root. */
function termShare(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const words = new Set(text.split(/[^\p{L}\p{N}]+/u).flatMap((w) => identifierParts(w)).map(wordRoot));
  return terms.filter((t) => words.has(wordRoot(t))).length / terms.length;
}

/**
 * Whether the best cell goes before the best declaration: when its text
 * holds more of the question's terms than the declaration's name, header
 * and doc do. At a tight budget the first row is the whole answer, and it
 * should be the one that says what was asked ("How many times are failed
 * charges retried?" is answered by the cell saying "three times", not by
 * the `retryCharge` declaration), whatever its kind.
 */
function cellLeads(query: string, declaration: AnswerDeclaration | undefined, cell: AnswerCell | undefined): boolean {
  if (!cell) return false;
  if (!declaration) return true;
  const terms = queryTerms(query);
  return termShare(terms, cell.text) > termShare(terms, `${declaration.name} ${declaration.signature} ${declaration.doc ?? ""}`);
}

/** The answer's rows as serialized: `used` is the token count of exactly this. */
function shape(query: string, rows: Row[]): Pick<MemoryQueryAnswer, "query" | "cells" | "entities" | "artifacts" | "declarations" | "files"> {
  return {
    query,
    cells: rows.flatMap(({ t, ...c }) => (t === "cell" ? [c as AnswerCell] : [])),
    entities: rows.flatMap(({ t, ...e }) => (t === "entity" ? [e as AnswerEntity] : [])),
    artifacts: rows.flatMap((r) => (r.t === "artifact" ? [{ artifactId: r.artifactId, title: r.title }] : [])),
    declarations: rows.flatMap(({ t, ...d }) => (t === "declaration" ? [d as AnswerDeclaration] : [])),
    files: rows.flatMap(({ t, ...f }) => (t === "file" ? [f as AnswerFile] : [])),
  };
}

/** Ranked cells sourced before the first packing; four times as many again each time packing looks past them. */
const FIRST_SOURCED = 128;

/**
 * The first packing of an answer's rows, its cells sourced in growing
 * prefixes of their ranking: an answer packs a few dozen cells of the
 * hundreds it ranks (packing stops after passing over 50 rows), and
 * sourcing each (its faction and file) was most of reading them out.
 * Rows up to the last sourced cell are the rows the whole list would
 * have, so a packing that stopped looking at or before it is the packing
 * of the whole list; else the next prefix is sourced and packed again
 * (row costs are kept, the rows being the same objects).
 */
async function packedHead(
  q: Queryable,
  candidates: readonly RankedCell[],
  rowsWith: (cells: ReadonlyArray<{ t: "cell" } & AnswerCell>) => Row[],
  pack: (rows: Row[]) => Packed<Row>,
): Promise<Packed<Row>> {
  const cells: Array<{ t: "cell" } & AnswerCell> = [];
  for (let from = 0, size = FIRST_SOURCED; ; from += size, size *= 4) {
    for (const c of await sourced(q, candidates.slice(from, from + size))) cells.push({ t: "cell", ...c });
    const rows = rowsWith(cells);
    const head = pack(rows);
    const lastCell = rows.findLastIndex((r) => r.t === "cell");
    if (from + size >= candidates.length || (head.stoppedAt !== undefined && head.stoppedAt <= lastCell)) return head;
  }
}

/** Ranked cells with their sources, in rank order; a cell retired since it was ranked is dropped. */
async function sourced(q: Queryable, cells: readonly RankedCell[]): Promise<AnswerCell[]> {
  const sources = await cellSources(q, cells.map((c) => c.cellId));
  return cells.flatMap((c) => {
    const source = sources.get(c.cellId);
    return source ? [{ cellId: c.cellId, text: c.text, fileId: source.fileId, filepath: source.path, ...source.span }] : [];
  });
}

/** Entities as answered: a symbol with the path of the file declaring it, when it has a live declaration. */
async function withFiles(q: Queryable, entities: readonly EntityBrief[]): Promise<AnswerEntity[]> {
  const paths = await symbolEntityPaths(q, entities.filter((e) => e.kind === "symbol").map((e) => e.entityId));
  return entities.map((e) => {
    const filepath = paths.get(e.entityId);
    const entity = { entityId: e.entityId, kind: e.kind, name: e.name };
    return filepath === undefined ? entity : { ...entity, filepath };
  });
}

/** With `fileIds`, only the entities backing a live cell of those files. */
async function inFiles(q: Queryable, entities: EntityBrief[], fileIds: readonly string[] | undefined): Promise<EntityBrief[]> {
  if (!fileIds?.length || entities.length === 0) return entities;
  const kept = await entitiesInFiles(q, entities.map((e) => e.entityId), fileIds);
  return entities.filter((e) => kept.has(e.entityId));
}

/** What a query's cell ranking is fused from (kept apart so the evaluation can tune the fusion without searching again). */
export interface CellSignals {
  pool: CellHit[];
  files: FileHit[];
  /** Documents by BM25 of the query expanded with feedback terms of the best documents (feedback-terms.ts). */
  feedback: FileHit[];
  walk: { cells: Map<string, number>; entities: Map<string, number> };
  seeds: EntityBrief[];
}

/** The fused cell ranking of a query (also used by the evaluation). */
export async function rankCells(
  q: Queryable,
  projectIds: string[],
  req: Pick<MemoryQueryRequest, "query" | "fileIds" | "entities" | "weights">,
): Promise<{ cells: RankedCell[]; walkEntities: Map<string, number>; seeds: EntityBrief[] }> {
  const s = await cellSignals(q, projectIds, req);
  return { cells: fuseSignals(s, req.weights), walkEntities: s.walk.entities, seeds: s.seeds };
}

/** The fusion of {@link cellSignals}, redundant cells dropped. */
export function fuseSignals(s: CellSignals, weights?: FusionWeights): RankedCell[] {
  return dropRedundant(fuseCells(s.pool, s.files, s.walk.cells, weights, { feedback: s.feedback }));
}

/**
 * The signals of a query's cells: BM25 over cells and over whole documents
 * (any term), BM25 of documents for the query expanded by feedback from the
 * best documents, and the walk from the seed entities.
 */
export async function cellSignals(
  q: Queryable,
  projectIds: string[],
  req: Pick<MemoryQueryRequest, "query" | "fileIds" | "entities">,
): Promise<CellSignals> {
  const seeds = await seedEntities(q, projectIds, req);
  const terms = queryTerms(req.query);
  const empty = { cells: new Map<string, number>(), entities: new Map<string, number>() };
  if (terms.length === 0) return { pool: [], files: [], feedback: [], walk: empty, seeds };
  const match = ftsAnyOf(terms);
  // The best cells of the top documents no pooled cell is from represent those documents (2 each, of the first 100).
  const files = await searchFiles(q, projectIds, match, FILE_POOL, req.fileIds);
  const cells = await searchCellPool(q, projectIds, match, CELL_POOL, { fileIds: files.map((f) => f.fileId), maxFiles: 100, perFile: 2 }, req.fileIds);
  const pool = [...cells.hits, ...cells.documentCells];
  const [walk, feedback] = await Promise.all([
    walkFrom(q, seeds.map((s) => s.entityId), req.fileIds),
    feedbackRanking(q, projectIds, terms, files, pool, req.fileIds),
  ]);
  return { pool: [...pool, ...walk.extra], files, feedback, walk: walk.scores, seeds };
}

/**
 * Documents by BM25 of the query expanded with feedback terms of the best
 * documents of the first ranking (`files`, read through the cells of `pool`);
 * none when no term is found. Exported so the evaluation can vary `options`
 * on signals gathered once.
 */
export async function feedbackRanking(
  q: Queryable,
  projectIds: string[],
  terms: readonly string[],
  files: readonly FileHit[],
  pool: readonly CellHit[],
  fileIds?: string[],
  options: FeedbackOptions = DEFAULT_FEEDBACK,
): Promise<FileHit[]> {
  const expansion = feedbackTerms(feedbackDocuments(files, pool, options.documents), terms, options.terms);
  if (expansion.length === 0) return [];
  return searchFiles(q, projectIds, ftsAnyOf([...terms, ...expansion]), FILE_POOL, fileIds);
}

/** The best documents of the first ranking with the text of their cells it read. */
function feedbackDocuments(files: readonly FileHit[], pool: readonly CellHit[], n: number): FeedbackDocument[] {
  return files.slice(0, n).map((f) => ({ score: f.score, texts: pool.filter((c) => c.fileId === f.fileId).map((c) => c.text) }));
}

/** Entities the query or `entities` name; with `fileIds`, only those backing a cell of those files. */
async function seedEntities(q: Queryable, projectIds: string[], req: Pick<MemoryQueryRequest, "query" | "entities" | "fileIds">): Promise<EntityBrief[]> {
  const given = (req.entities ?? []).map((e) => e.toLowerCase().trim()).filter(Boolean);
  const named = await entitiesNamed(q, projectIds, [...new Set([...queryNgrams(req.query), ...given])]);
  return inFiles(q, unambiguous(named, new Set(given)), req.fileIds);
}

/**
 * Drops the symbols of a name the query happens to contain when that name
 * names more than {@link MAX_SAME_NAME} of them (a dozen variables called
 * `router`): listing them tells the caller nothing and walking from all of
 * them spreads the walk over unrelated files. Other kinds are kept (a
 * concept and a product of one name are two readings of the same word, not
 * noise). Names the caller gave in `entities` are kept whatever their count.
 */
function unambiguous(entities: readonly EntityBrief[], given: ReadonlySet<string>): EntityBrief[] {
  const key = (e: EntityBrief) => e.name.toLowerCase();
  const counts = new Map<string, number>();
  for (const e of entities) if (e.kind === "symbol") counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  return entities.filter((e) => e.kind !== "symbol" || counts.get(key(e))! <= MAX_SAME_NAME || given.has(key(e)));
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

/**
 * Entities the walk reached or the top cells name, best first, seeds
 * excluded; with `fileIds`, only those backing a cell of those files.
 */
async function relatedEntities(
  q: Queryable,
  topCells: string[],
  walk: Map<string, number>,
  seeds: EntityBrief[],
  fileIds: readonly string[] | undefined,
): Promise<EntityBrief[]> {
  const weight = new Map<string, number>();
  for (const [id, v] of walk) weight.set(id, v);
  for (const l of await linksOfCells(q, topCells)) weight.set(l.entityId, (weight.get(l.entityId) ?? 0) + 0.01);
  for (const s of seeds) weight.delete(s.entityId);
  const ranked = [...weight.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  const kept = fileIds?.length ? await entitiesInFiles(q, ranked, fileIds) : undefined;
  const top = (kept ? ranked.filter((id) => kept.has(id)) : ranked).slice(0, 20);
  const briefs = new Map((await entityBriefs(q, top)).map((e) => [e.entityId, e]));
  return top.flatMap((id) => (briefs.has(id) ? [briefs.get(id)!] : []));
}
