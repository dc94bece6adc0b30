/** Where a ranked list stops: relevance below `ratio` of the best, or `max` rows when a maximum is set. */
export interface CutRule {
  ratio: number;
  max?: number | undefined;
}

/**
 * No fixed count: the budget decides how much of what passes the ratio is
 * packed. Measured on the code evaluation's tuning repositories
 * (bench/eval-code.ts).
 */
export const DECLARATION_CUT: CutRule = { ratio: 0.3 };
/** The budget at which {@link DECLARATION_CUT} holds as measured; the default budget of both actions. */
const MEASURED_BUDGET = 4096;
/** The lowest share of the best a declaration needs, whatever the budget. */
const FLOOR_RATIO = 0.1;

/**
 * The declaration cut at a budget: {@link DECLARATION_CUT}'s ratio up to the
 * default budget, lower as the budget grows (by the square root of the
 * ratio of budgets, never under a tenth), so a caller giving more room gets
 * the next most relevant rows rather than the same ones: the cut stays a
 * share of the best, never a count, and a bigger budget's rows hold a
 * smaller one's.
 */
export function declarationCutAt(budget: number): CutRule {
  const ratio = DECLARATION_CUT.ratio * Math.sqrt(MEASURED_BUDGET / Math.max(budget, MEASURED_BUDGET));
  return { ...DECLARATION_CUT, ratio: Math.max(FLOOR_RATIO, ratio) };
}

/** Files are cheap pointers: the list reaches further down the ranking than the declarations do. */
export const FILE_CUT: CutRule = { ratio: 0.1 };

/**
 * The rows of a ranking whose relevance has not fallen off: rows scoring
 * under `ratio` of the best are dropped, the rest kept in the ranking's
 * order (which may be diversified rather than by score), at most `max`.
 * What is left is the whole answer, not a truncation of it.
 */
export function relevanceCut<T extends { score: number }>(ranked: readonly T[], rule: CutRule): T[] {
  const top = Math.max(0, ...ranked.map((r) => r.score));
  if (top <= 0) return [];
  const out: T[] = [];
  for (const row of ranked) {
    if (out.length >= (rule.max ?? Number.POSITIVE_INFINITY)) break;
    if (row.score >= rule.ratio * top) out.push(row);
  }
  return out;
}
