import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { tokenCounter } from "../../../src/retrieve/token-counter.js";
import { receivedTokens, withinResultLimit } from "../../../src/transports/mcp/result-limit.js";

const count = tokenCounter("o200k_base");

/**
 * A packed answer whose size follows its budget as real ones do, but costs
 * more on the wire than `used` says (ids, keys and links beside the text):
 * about 1.6 tokens received per token of budget, with `budget` echoed.
 */
function packer(calls: Array<number | undefined>) {
  return async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const budget = typeof args.budget === "number" ? args.budget : 4096;
    calls.push(args.budget as number | undefined);
    const words = Array.from({ length: Math.floor(budget * 1.6) }, (_, i) => `w${i % 10}`).join(" ");
    const body = { action: "pack", result: { budget, used: budget, text: words } };
    return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
  };
}

/**
 * A packed answer that fills only part of its budget (`used` is what its
 * rows hold, at most 300) and carries a fixed 700 tokens of ids and file
 * list beside them, as a code pack over short notes does.
 */
function sparsePacker(calls: Array<number | undefined>) {
  return async (args: Record<string, unknown>): Promise<CallToolResult> => {
    const budget = typeof args.budget === "number" ? args.budget : 4096;
    calls.push(args.budget as number | undefined);
    const used = Math.min(budget, 300);
    const text = Array.from({ length: used + 700 }, () => "a").join(" ");
    const body = { action: "pack", result: { budget, used, text } };
    return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
  };
}

describe("withinResultLimit", () => {
  it("an answer over the limit that used little of its budget is scaled from what it used, not from the budget", async () => {
    const calls: Array<number | undefined> = [];
    const result = await withinResultLimit({ budget: 500_000 }, { maxTokens: 1000, count, budgeted: true }, sparsePacker(calls));
    expect(result.isError).toBeFalsy();
    expect(calls[0]).toBe(1000);
    expect(calls[1]).toBeLessThan(300);
    expect(receivedTokens(result, count)).toBeLessThanOrEqual(1000);
  });

  it("a budget over the limit is clamped, then scaled down until the received answer fits; the answer says so", async () => {
    const calls: Array<number | undefined> = [];
    const result = await withinResultLimit({ budget: 1_000_000 }, { maxTokens: 2000, count, budgeted: true }, packer(calls));
    expect(calls[0]).toBe(2000);
    expect(calls.length).toBeGreaterThan(1);
    expect(receivedTokens(result, count)).toBeLessThanOrEqual(2000);
    const kept = calls.at(-1)!;
    expect(result._meta?.["pks/budget"]).toEqual({ asked: 1_000_000, kept, maxResultTokens: 2000 });
  });

  it("no budget given: the answer's own budget is scaled when the answer is over", async () => {
    const calls: Array<number | undefined> = [];
    const result = await withinResultLimit({}, { maxTokens: 3000, count, budgeted: true }, packer(calls));
    expect(calls[0]).toBeUndefined();
    expect(calls[1]).toBeLessThan(4096);
    expect(receivedTokens(result, count)).toBeLessThanOrEqual(3000);
    expect((result._meta?.["pks/budget"] as { asked: unknown }).asked).toBeNull();
  });

  it("an answer that fits is handed on untouched; a tool with no budget over the limit is refused with 413, run once", async () => {
    const calls: Array<number | undefined> = [];
    const small = await withinResultLimit({ budget: 100 }, { maxTokens: 2000, count, budgeted: true }, packer(calls));
    expect(calls).toEqual([100]);
    expect(small._meta).toBeUndefined();
    const once: Array<number | undefined> = [];
    const refused = await withinResultLimit({}, { maxTokens: 2000, count, budgeted: false }, packer(once));
    expect(once).toHaveLength(1);
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as { error: { code: string; status: number } }).error).toMatchObject({ code: "result_too_large", status: 413 });
  });

  it("a budget above what the input admits is not clamped: validation refuses it", async () => {
    const calls: Array<number | undefined> = [];
    await withinResultLimit({ budget: 3000 }, { maxTokens: 2000, count, budgeted: true, budgetCeiling: 1000 }, packer(calls));
    expect(calls[0]).toBe(3000);
  });

  it("an error result is handed on as it is", async () => {
    const error: CallToolResult = { isError: true, content: [{ type: "text", text: "x".repeat(100_000) }] };
    expect(await withinResultLimit({ budget: 5 }, { maxTokens: 1000, count, budgeted: true }, async () => error)).toBe(error);
  });
});
