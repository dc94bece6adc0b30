import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../../errors.js";

/**
 * The most tokens one MCP tool result may hold by default: Claude Code cuts
 * a tool's output past 25,000 tokens, and a cut answer loses its tail (and
 * with it the JSON's closing) without saying so.
 */
export const DEFAULT_MAX_RESULT_TOKENS = 25_000;

/** A budget given again is cut to this share of what would fit, so the next answer lands under the limit. */
const MARGIN = 0.9;
/** Answers tried at most: the first, then smaller budgets. */
const ATTEMPTS = 4;

export interface ResultLimit {
  /** Tokens one result may hold, counted over its content as the client receives it. */
  readonly maxTokens: number;
  readonly count: (text: string) => number;
  /** Whether the tool packs its answer to a `budget` argument (and may be run again: not detached). */
  readonly budgeted: boolean;
  /** The largest budget the tool's input admits: one above it is left for validation to refuse, not clamped. */
  readonly budgetCeiling?: number;
}

/**
 * Runs a call so its result fits `maxTokens` as the client receives it
 * (see `receivedTokens`). A tool that packs to a `budget` is given
 * at most `maxTokens`; an answer still over it (rows cost their ids and
 * keys beside their text) is asked again with the budget scaled down to
 * what fits. A clamped answer says so: its `budget` is the one kept, a text
 * block and `_meta["pks/budget"]` give the asked and kept budgets and the
 * limit. An answer that cannot be made to fit is refused with 413 naming
 * the limit, never cut.
 */
export async function withinResultLimit(
  args: Record<string, unknown>,
  limit: ResultLimit,
  run: (args: Record<string, unknown>) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const asked = typeof args.budget === "number" ? args.budget : undefined;
  const admitted = asked !== undefined && asked <= (limit.budgetCeiling ?? Infinity);
  let kept = limit.budgeted && admitted && asked > limit.maxTokens ? limit.maxTokens : asked;
  let tokens = 0;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const result = await run(kept === undefined ? args : { ...args, budget: kept });
    if (result.isError) return result;
    const answer = kept === asked ? result : clamped(result, asked, kept!, limit.maxTokens);
    tokens = receivedTokens(answer, limit.count);
    if (tokens <= limit.maxTokens) return answer;
    if (!limit.budgeted) break;
    const current = packedTokens(result, kept);
    if (current === undefined) break;
    kept = Math.floor((current * limit.maxTokens * MARGIN) / tokens);
    if (kept < 1) break;
  }
  return refusal(tokens, limit.maxTokens);
}

/**
 * The tokens of a result as the client hands it on: each text block's text
 * (the JSON body is read as the text it is, not escaped again), any other
 * block (a resource link) as its JSON.
 */
export function receivedTokens(result: CallToolResult, count: (text: string) => number): number {
  return result.content.reduce((sum, block) => sum + count(block.type === "text" ? block.text : JSON.stringify(block)), 0);
}

/**
 * The budget to scale down from: what the answer packed (`result.used`)
 * when it left part of its budget unused, else the budget given (or, when
 * none was, the one the answer says it packed to). Scaling the budget alone
 * changes nothing when the rows already fit well under it and the ids and
 * file list beside them carry the answer over the limit.
 */
function packedTokens(result: CallToolResult, given: number | undefined): number | undefined {
  const body = result.structuredContent as { result?: { budget?: unknown; used?: unknown } } | undefined;
  const budget = given ?? (typeof body?.result?.budget === "number" ? body.result.budget : undefined);
  const used = typeof body?.result?.used === "number" ? body.result.used : undefined;
  if (budget === undefined) return used;
  return used === undefined ? budget : Math.min(budget, used);
}

function clamped(result: CallToolResult, asked: number | undefined, kept: number, maxTokens: number): CallToolResult {
  const note = {
    asked: asked ?? null,
    kept,
    maxResultTokens: maxTokens,
  };
  const text =
    `budget ${asked ?? "(default)"} clamped to ${kept}: one MCP result holds at most ${maxTokens} tokens ` +
    "(PKS_MAX_RESULT_TOKENS); ask again for what the answer left out";
  return { ...result, content: [...result.content, { type: "text", text }], _meta: { ...result._meta, "pks/budget": note } };
}

function refusal(tokens: number, maxTokens: number): CallToolResult {
  const error = new AppError("result_too_large", {
    message:
      `the answer is ${tokens} tokens, over the ${maxTokens} one MCP result may hold (PKS_MAX_RESULT_TOKENS): ` +
      "ask for less (a smaller limit or budget, or page with the cursor)",
  });
  const envelope = error.toEnvelope();
  return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], structuredContent: envelope };
}
