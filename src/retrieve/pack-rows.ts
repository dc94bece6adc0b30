import { requireBudget } from "./budget.js";
import type { TokenCounter } from "./token-counter.js";

export interface Packed<T> {
  rows: T[];
  /** Tokens of the chosen rows as serialized in the answer. */
  used: number;
}

/** How many rows that do not fit may be passed over looking for smaller ones. */
const MAX_PASSES = 50;

/**
 * Greedy packing in rank order: each row is added if its serialized tokens
 * still fit; the exact count of the final serialization decides, trimming
 * from the tail if row-by-row estimates fell short. `used ≤ budget` always:
 * a budget below what the empty answer already costs is refused (400), the
 * one budget floor of every packed answer.
 */
export function packRows<T>(ranked: readonly T[], budget: number, count: TokenCounter, serialize: (rows: T[]) => string): Packed<T> {
  const rows: T[] = [];
  let estimate = count(serialize([]));
  requireBudget(budget, estimate);
  let passes = 0;
  for (const row of ranked) {
    const cost = count(JSON.stringify(row)) + 1;
    if (estimate + cost > budget) {
      if (++passes > MAX_PASSES) break;
      continue;
    }
    rows.push(row);
    estimate += cost;
  }
  let used = count(serialize(rows));
  while (used > budget && rows.length > 0) {
    rows.pop();
    used = count(serialize(rows));
  }
  return { rows, used };
}
