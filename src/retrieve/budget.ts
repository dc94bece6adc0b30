import { z } from "zod";
import { AppError } from "../errors.js";

/**
 * One budget rule for every packed answer: the default when none is set,
 * the ceiling, and the floor. `used` counts the tokens of the answer's rows
 * as serialized (the empty envelope included), so a budget below the cost
 * of an empty answer could never be kept: it is refused, not overrun.
 */
export const DEFAULT_BUDGET = 4096;
export const MAX_BUDGET = 1_000_000;

/** The `budget` input field of a packed answer; `floor` describes its smallest value. */
export function budgetField(floor: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_BUDGET)
    .optional()
    .describe(`Token ceiling of the packed answer (default ${DEFAULT_BUDGET}; at least ${floor}). \`used\` never exceeds it.`);
}

/** 400 when `budget` is below what the empty answer already costs. */
export function requireBudget(budget: number, emptyCost: number): void {
  if (budget < emptyCost) {
    throw new AppError("invalid_input", {
      message: `invalid input: budget: must be at least ${emptyCost} tokens, what the empty answer already costs`,
    });
  }
}
