import { requireBudget } from "./budget.js";
import type { TokenCounter } from "./token-counter.js";

export interface Packed<T> {
  rows: T[];
  /** Tokens of the chosen rows as serialized in the answer. */
  used: number;
  /**
   * The index of the row at which packing stopped looking, having passed
   * over {@link MAX_PASSES} rows that did not fit; absent when it looked at
   * every row. Rows after it cannot change the packing.
   */
  stoppedAt?: number;
}

/**
 * A packing that is packed again (a head of rows leaving room for a list,
 * then the head and the list together) shares its row costs and need not
 * count its own serialization: counting tokens was most of an answer's
 * time, and each pass counted every row and then the whole again.
 */
export interface PackPass<T> {
  /** Token costs of rows counted before, filled by this pass: each row is counted once. */
  costs?: Map<T, number>;
  /** Whether the final serialization is counted and trimmed to the budget (true unless packed again after). */
  exact?: boolean;
}

/** How many rows that do not fit may be passed over looking for smaller ones. */
const MAX_PASSES = 50;

/**
 * Greedy packing in rank order: each row is added if its serialized tokens
 * still fit; the exact count of the final serialization decides, trimming
 * from the tail if row-by-row estimates fell short (unless `pass.exact` is
 * false: then `used` is the estimate). `used ≤ budget` always:
 * a budget below what the empty answer already costs is refused (400), the
 * one budget floor of every packed answer.
 */
export function packRows<T>(ranked: readonly T[], budget: number, count: TokenCounter, serialize: (rows: T[]) => string, pass: PackPass<T> = {}): Packed<T> {
  const costs = pass.costs ?? new Map<T, number>();
  const rows: T[] = [];
  let estimate = count(serialize([]));
  requireBudget(budget, estimate);
  let passes = 0;
  let stoppedAt: number | undefined;
  for (const [i, row] of ranked.entries()) {
    const cost = costs.get(row) ?? count(JSON.stringify(row)) + 1;
    costs.set(row, cost);
    if (estimate + cost > budget) {
      if (++passes > MAX_PASSES) {
        stoppedAt = i;
        break;
      }
      continue;
    }
    rows.push(row);
    estimate += cost;
  }
  if (pass.exact === false) return { rows, used: estimate, ...(stoppedAt === undefined ? {} : { stoppedAt }) };
  let used = count(serialize(rows));
  while (used > budget && rows.length > 0) {
    rows.pop();
    used = count(serialize(rows));
  }
  return { rows, used };
}
