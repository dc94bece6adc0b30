/**
 * Settings tried by `bench/eval-code.ts --tune` on the tuning third of the
 * tasks: the ranking's signal weights and the relevance cut.
 */
import type { CodeContextPackRequest } from "../../src/retrieve/code/code-context-pack.js";
import { RANK_WEIGHTS } from "../../src/retrieve/code/rank-declarations.js";
import { DECLARATION_CUT, FILE_CUT } from "../../src/retrieve/code/relevance-cut.js";

type Tuning = NonNullable<CodeContextPackRequest["tuning"]>;

/** Named settings, each changing one thing from the defaults. */
export function tuningGrid(): Map<string, Tuning> {
  const grid = new Map<string, Tuning>([["default", {}]]);
  const weights = (name: string, change: Partial<typeof RANK_WEIGHTS>) => grid.set(name, { weights: { ...RANK_WEIGHTS, ...change } });
  for (const tests of [1, 0.25]) weights(`tests=${tests}`, { tests });
  for (const fileText of [0, 1]) weights(`fileText=${fileText}`, { fileText });
  for (const file of [1, 2]) weights(`file=${file}`, { file });
  for (const walk of [0, 1]) weights(`walk=${walk}`, { walk });
  for (const anchors of [15, 60]) weights(`anchors=${anchors}`, { anchors });
  for (const ratio of [0.3, 0.4, 0.6]) grid.set(`cut=${ratio}`, { declarations: { ...DECLARATION_CUT, ratio } });
  for (const [ratio, max] of [[0.3, 10], [0.2, 15], [0.1, 20]] as const) grid.set(`files=${ratio}/${max}`, { files: { ratio, max } });
  grid.set("files=0.3/10,cut=0.4", { declarations: { ...DECLARATION_CUT, ratio: 0.4 }, files: { ratio: 0.3, max: 10 } });
  grid.set("files=0.2/15,cut=0.4", { declarations: { ...DECLARATION_CUT, ratio: 0.4 }, files: { ratio: 0.2, max: 15 } });
  return grid;
}
