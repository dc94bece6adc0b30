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
  for (const decayWhole of [0, 0.5]) weights(`decayWhole=${decayWhole}`, { decayWhole });
  for (const fileDecay of [0.7, 1]) weights(`fileDecay=${fileDecay}`, { fileDecay });
  for (const peripheral of [0.3, 1]) weights(`peripheral=${peripheral}`, { peripheral });
  for (const fields of [[4, 2, 1, 1.5, 1], [2, 2, 1, 1.5, 2], [1, 2, 1, 1.5, 1], [2, 1, 1, 1, 1]] as const) weights(`fields=${fields.join("/")}`, { fields });
  for (const uses of [0, 0.25, 1]) weights(`uses=${uses}`, { uses });
  for (const scope of [0, 1]) weights(`scope=${scope}`, { scope });
  for (const barrel of [0, 0.8]) weights(`barrel=${barrel}`, { barrel });
  for (const fileText of [0, 1]) weights(`fileText=${fileText}`, { fileText });
  for (const tests of [0.25, 1]) weights(`tests=${tests}`, { tests });
  for (const file of [0.25, 1]) weights(`file=${file}`, { file });
  for (const walk of [0.25, 1]) weights(`walk=${walk}`, { walk });
  for (const named of [0.5, 2]) weights(`named=${named}`, { named });
  for (const ratio of [0.1, 0.2, 0.3, 0.5]) grid.set(`cut=${ratio}`, { declarations: { ...DECLARATION_CUT, ratio } });
  if (only.length === 0) return grid;
  return new Map([...grid].filter(([name]) => name === "default" || only.some((o) => name.startsWith(o))));
}
