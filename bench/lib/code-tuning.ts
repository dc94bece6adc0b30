/**
 * Settings tried by `bench/eval-code.ts --tune` on the tuning repositories:
 * the ranking's signal weights, its diversification and the relevance cut.
 */
import type { CodeContextPackRequest } from "../../src/retrieve/code/code-context-pack.js";
import { RANK_WEIGHTS } from "../../src/retrieve/code/rank-declarations.js";
import { DECLARATION_CUT } from "../../src/retrieve/code/relevance-cut.js";

type Tuning = NonNullable<CodeContextPackRequest["tuning"]>;

/** Named settings, each changing one thing from the defaults (or `only` of them, by name prefix). */
export function tuningGrid(only: readonly string[] = []): Map<string, Tuning> {
  const grid = new Map<string, Tuning>([["default", {}]]);
  const weights = (name: string, change: Partial<typeof RANK_WEIGHTS>) => grid.set(name, { weights: { ...RANK_WEIGHTS, ...change } });
  for (const termDecay of [0.3, 0.7, 1]) weights(`termDecay=${termDecay}`, { termDecay });
  for (const fileDecay of [0.7, 1]) weights(`fileDecay=${fileDecay}`, { fileDecay });
  for (const peripheral of [0.3, 1]) weights(`peripheral=${peripheral}`, { peripheral });
  for (const tests of [0.25, 1]) weights(`tests=${tests}`, { tests });
  for (const file of [0.25, 1]) weights(`file=${file}`, { file });
  for (const walk of [0.25, 1]) weights(`walk=${walk}`, { walk });
  for (const named of [0.5, 2]) weights(`named=${named}`, { named });
  for (const ratio of [0.05, 0.1, 0.15, 0.35]) grid.set(`cut=${ratio}`, { declarations: { ...DECLARATION_CUT, ratio } });
  if (only.length === 0) return grid;
  return new Map([...grid].filter(([name]) => name === "default" || only.some((o) => name.startsWith(o))));
}
