/** Where a ranked list stops: relevance below `ratio` of the best, or `max` rows. */
export interface CutRule {
  ratio: number;
  max: number;
}

/** Measured on the code evaluation's tuning split (bench/eval-code.ts). */
export const DECLARATION_CUT: CutRule = { ratio: 0.4, max: 40 };
/** Files are cheap pointers: the list reaches further down the ranking than the declarations do. */
export const FILE_CUT: CutRule = { ratio: 0.1, max: 20 };

/**
 * The head of a ranking (best first) down to where relevance falls off:
 * rows scoring under `ratio` of the top one are dropped, and at most `max`
 * kept. What is left is the whole answer, not a truncation of it.
 */
export function relevanceCut<T extends { score: number }>(ranked: readonly T[], rule: CutRule): T[] {
  const top = ranked[0]?.score ?? 0;
  if (top <= 0) return [];
  const out: T[] = [];
  for (const row of ranked) {
    if (out.length >= rule.max || row.score < rule.ratio * top) break;
    out.push(row);
  }
  return out;
}
