import { packRows } from "../pack-rows.js";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import type { Queryable } from "../../store/db.js";
import { rankDeclarations } from "./rank-declarations.js";
import type { Ranking, RankWeights } from "./rank-declarations.js";
import { isTask, MIN_FILES, rankFiles, readFileEvidence } from "./rank-files.js";
import type { FileEvidence } from "./rank-files.js";
import { packedDeclaration } from "./packed-rows.js";
import type { PackedDeclaration, PackedFile } from "./packed-rows.js";
import { declarationCutAt, FILE_CUT, relevanceCut } from "./relevance-cut.js";
import type { CutRule } from "./relevance-cut.js";
import { resolveSeeds } from "./resolve-seeds.js";
import { withoutBanners } from "./task-terms.js";
import type { Seeds } from "./resolve-seeds.js";
import type { FileCopy } from "./duplicate-files.js";
import { testFilesOf } from "./test-files.js";

export interface CodeContextPackRequest {
  task: string;
  seedSymbols?: string | undefined;
  seedFiles?: string | undefined;
  budget: number;
  /** Ranking and cut settings other than the defaults (evaluation only). */
  tuning?: { weights?: RankWeights; declarations?: CutRule; files?: CutRule; filePlace?: number; fileRowsByScore?: boolean; keepBanners?: boolean } | undefined;
}

export interface CodeContextPack {
  budget: number;
  used: number;
  declarations: PackedDeclaration[];
  files: PackedFile[];
}

type Row = PackedDeclaration | PackedFile;

/** Most of the budget the file list may keep from the declarations: a quarter. */
const FILE_SHARE = 0.25;
/** Room kept for test files when the list is estimated before the declarations are packed. */
const TEST_ROOM = 200;

const isDeclaration = (r: Row): r is PackedDeclaration => "symbolId" in r;

/** In a task's pack, each place a declaration's file stands down the file list costs it this many places among the declarations. */
const FILE_PLACE = 10;

/**
 * A task's declarations in the order of their files' ranking, within a
 * file by their own score: the file ranking weighs the graph and the whole
 * issue, while a declaration's own score leans on the few words it
 * matches, so the function to change sits in the file ranked first more
 * often than at the head of the declarations. A declaration at place `i`
 * whose file stands `r`-th takes the place `i + place * r` (files not
 * listed count as standing last); then each file's places go to its rows
 * best score first. The diversified order (diversify.ts) decides how many
 * places a file holds and where, so each term of the issue still shows;
 * inside one file it would put a row the file's standing alone lifts
 * before the rows that match the issue best, their terms being already
 * held by an earlier row (`byScore` false keeps that order).
 */
function inFileOrder<T extends { score: number; declaration: { fileId: string } }>(cut: readonly T[], files: readonly PackedFile[], place: number, byScore = true): T[] {
  const rank = new Map(files.map((f, i) => [f.fileId, i]));
  const key = (d: T, i: number) => i + place * (rank.get(d.declaration.fileId) ?? files.length);
  const placed = cut.map((d, i) => ({ d, k: key(d, i) })).sort((a, b) => a.k - b.k).map((x) => x.d);
  if (!byScore) return placed;
  const rowsOf = new Map<string, T[]>();
  for (const d of placed) {
    const rows = rowsOf.get(d.declaration.fileId);
    if (rows) rows.push(d);
    else rowsOf.set(d.declaration.fileId, [d]);
  }
  for (const rows of rowsOf.values()) rows.sort((a, b) => b.score - a.score);
  const next = new Map<string, number>();
  return placed.map((d) => {
    const at = next.get(d.declaration.fileId) ?? 0;
    next.set(d.declaration.fileId, at + 1);
    return rowsOf.get(d.declaration.fileId)![at]!;
  });
}

/**
 * A task's cut: what passes the relevance cut, and every ranked
 * declaration of the first listed file (the file an agent opens first),
 * in ranking order. In a whole issue the function to change often says
 * few of its words, so it scores far under the best row even when its file
 * leads; the ranking's own floor (rank-declarations.ts) still holds.
 */
function withLeadFile<T extends { declaration: { fileId: string } }>(ranked: readonly T[], kept: readonly T[], files: readonly PackedFile[]): T[] {
  const lead = files[0]?.fileId;
  const passed = new Set(kept);
  return ranked.filter((d) => passed.has(d) || d.declaration.fileId === lead);
}

/**
 * The pack's files: the shared file ranking (rank-files.ts) with the pack's
 * own standing of each file (its declarations, the walks over references
 * and imports from the matches and the seeds) as that ranking's `extra`
 * evidence; cut where relevance falls off but never under
 * {@link MIN_FILES}. Seed files and copies are left out; the files of seed
 * symbols lead (a seed never lowers its own file).
 */
async function listedFiles(q: Queryable, projectIds: readonly string[], req: CodeContextPackRequest, seeds: Seeds, ranking: Ranking, evidence: Promise<FileEvidence>): Promise<PackedFile[]> {
  const reasons = new Map(ranking.files.map((f) => [f.fileId, f.reason]));
  const own = new Map(ranking.files.map((f) => [f.fileId, f.score]));
  const exclude = new Set([...seeds.files.map((f) => f.fileId), ...ranking.copies.keys()]);
  const core = await rankFiles(q, projectIds, req.task, own, undefined, exclude, evidence);
  const seeded = seeds.declarations.filter((d) => !exclude.has(d.fileId)).map((d) => ({ fileId: d.fileId, path: d.path, score: Number.POSITIVE_INFINITY }));
  const ranked = [...new Map([...seeded, ...core].map((f) => [f.fileId, f])).values()];
  const kept = relevanceCut(ranked.filter((f) => Number.isFinite(f.score)), req.tuning?.files ?? FILE_CUT).length;
  return ranked.slice(0, Math.max(kept + seeded.length, MIN_FILES)).map((f) => ({ fileId: f.fileId, filepath: f.path, reason: reasons.get(f.fileId) ?? "match" }));
}

function shape(rows: readonly Row[]) {
  return { declarations: rows.filter(isDeclaration), files: rows.filter((r): r is PackedFile => !isDeclaration(r)) };
}

/** Copies of the files a pack names, as `duplicate` rows after the file each repeats. */
function copyRows(copies: ReadonlyMap<string, FileCopy>, named: ReadonlySet<string>): PackedFile[] {
  return [...copies.values()]
    .filter((c) => named.has(c.canonicalFileId))
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((c) => ({ fileId: c.fileId, filepath: c.path, reason: "duplicate" as const, duplicateOf: c.canonicalPath }));
}

/**
 * The declarations (as headers) and files most relevant to a coding task,
 * cut where relevance falls off and packed to `budget` tokens of the
 * serialized `{declarations, files}`: declarations first, in rank order,
 * leaving room for the file list (up to a quarter of the budget); then the
 * ranked files, the copies of named files (`duplicate`, with the file kept
 * in their place) and the tests of packed declarations (`test`) in what is
 * left. Seeds steer the ranking and are never returned.
 */
export async function codeContextPack(
  q: Queryable,
  scope: Pick<Scope, "projectIds">,
  req: CodeContextPackRequest,
  tools: Pick<Tools, "tokens">,
): Promise<CodeContextPack> {
  const { projectIds } = scope;
  const count = tools.tokens;
  if (isTask(req.task) && !req.tuning?.keepBanners) req = { ...req, task: withoutBanners(req.task) };
  const seeds = await resolveSeeds(q, projectIds, req);
  const declarationRanking = rankDeclarations(q, projectIds, req.task, seeds, req.tuning?.weights);
  // The file ranking's searches need nothing the declarations' ranking finds: asked for once that ranking's own searches
  // are (query threads take statements in turn), they run while its smaller reads leave a thread idle.
  const evidence = readFileEvidence(q, projectIds, req.task);
  const ranking = await declarationRanking;
  const files = await listedFiles(q, projectIds, req, seeds, ranking, evidence);
  const kept = relevanceCut(ranking.declarations, req.tuning?.declarations ?? declarationCutAt(req.budget));
  const cut = isTask(req.task) ? inFileOrder(withLeadFile(ranking.declarations, kept, files), files, req.tuning?.filePlace ?? FILE_PLACE, req.tuning?.fileRowsByScore ?? true) : kept;
  const serialize = (rows: Row[]) => JSON.stringify(shape(rows));
  const empty = count(serialize([]));
  const namedBefore = new Set([...files.map((f) => f.fileId), ...cut.map((d) => d.declaration.fileId)]);
  const reserve = count(JSON.stringify([...files, ...copyRows(ranking.copies, namedBefore)])) + (cut.length > 0 ? TEST_ROOM : 0);
  const byId = new Map(cut.map((d) => [d.declaration.symbolId, d.declaration]));
  const costs = new Map<Row, number>();
  const headBudget = Math.max(empty, req.budget - Math.min(reserve, Math.floor(req.budget * FILE_SHARE)));
  const head = packRows<Row>(cut.map((d) => packedDeclaration(d.declaration)), headBudget, count, serialize, { costs, exact: false });
  const packed = head.rows.filter(isDeclaration).flatMap((r) => (byId.has(r.symbolId) ? [byId.get(r.symbolId)!] : []));
  const tests = (await testFilesOf(q, projectIds, packed)).map((t): PackedFile => ({ fileId: t.fileId, filepath: t.path, reason: "test" }));
  const listed = new Set(files.map((f) => f.fileId));
  const testing = new Set(tests.map((t) => t.fileId));
  const named = new Set([...listed, ...packed.map((d) => d.fileId)]);
  // A ranked file that tests a packed declaration says so.
  const ranked = files.map((f) => (testing.has(f.fileId) ? { ...f, reason: "test" as const } : f));
  const rest = [...ranked, ...copyRows(ranking.copies, named), ...tests.filter((t) => !listed.has(t.fileId))];
  const all = packRows([...head.rows, ...rest], req.budget, count, serialize, { costs });
  return { budget: req.budget, used: all.used, ...shape(all.rows) };
}
