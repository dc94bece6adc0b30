import { packRows } from "../pack-rows.js";
import type { Scope } from "../../core/scope.js";
import type { Tools } from "../../core/tools.js";
import type { TokenCounter } from "../token-counter.js";
import type { Queryable } from "../../store/db.js";
import { rankDeclarations } from "./rank-declarations.js";
import type { RankedFile, RankWeights } from "./rank-declarations.js";
import { packedDeclaration } from "./packed-rows.js";
import type { PackedDeclaration, PackedFile } from "./packed-rows.js";
import { DECLARATION_CUT, FILE_CUT, relevanceCut } from "./relevance-cut.js";
import type { CutRule } from "./relevance-cut.js";
import { resolveSeeds } from "./resolve-seeds.js";

export interface CodeContextPackRequest {
  task: string;
  seedSymbols?: string | undefined;
  seedFiles?: string | undefined;
  budget: number;
  /** Ranking and cut settings other than the defaults (evaluation only). */
  tuning?: { weights?: RankWeights; declarations?: CutRule; files?: CutRule } | undefined;
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

const isDeclaration = (r: Row): r is PackedDeclaration => "symbolId" in r;

function fileRow(f: RankedFile): PackedFile {
  return { fileId: f.fileId, filepath: f.path, reason: f.reason };
}

function shape(rows: readonly Row[]) {
  return { declarations: rows.filter(isDeclaration), files: rows.filter((r): r is PackedFile => !isDeclaration(r)) };
}

/**
 * Declarations first, in rank order, leaving room for the file list (up to
 * a quarter of the budget); then the files in what is left.
 */
function pack(declarations: readonly PackedDeclaration[], files: readonly PackedFile[], budget: number, count: TokenCounter) {
  const serialize = (rows: Row[]) => JSON.stringify(shape(rows));
  const filesCost = count(JSON.stringify(files));
  const empty = count(serialize([]));
  const head = packRows(declarations, Math.max(empty, budget - Math.min(filesCost, Math.floor(budget * FILE_SHARE))), count, serialize);
  return packRows([...head.rows, ...files], budget, count, serialize);
}

/**
 * The declarations (as headers) and files most relevant to a coding task,
 * cut where relevance falls off and packed to `budget` tokens of the
 * serialized `{declarations, files}`. Seeds steer the ranking and are
 * never returned.
 */
export async function codeContextPack(
  q: Queryable,
  scope: Pick<Scope, "projectIds">,
  req: CodeContextPackRequest,
  tools: Pick<Tools, "tokens">,
): Promise<CodeContextPack> {
  const { projectIds } = scope;
  const count = tools.tokens;
  const seeds = await resolveSeeds(q, projectIds, req);
  const ranking = await rankDeclarations(q, projectIds, req.task, seeds, req.tuning?.weights);
  const declarations = relevanceCut(ranking.declarations, req.tuning?.declarations ?? DECLARATION_CUT).map((d) => packedDeclaration(d.declaration));
  const files = relevanceCut(ranking.files, req.tuning?.files ?? FILE_CUT).map(fileRow);
  const packed = pack(declarations, files, req.budget, count);
  return { budget: req.budget, used: packed.used, ...shape(packed.rows) };
}
