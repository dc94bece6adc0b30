/**
 * No MCP tool result past the limit (`PKS_MAX_RESULT_TOKENS`, 25,000 by
 * default) as the client receives it: a budget above what fits is clamped
 * and the answer says so; an answer with no budget to clamp is refused
 * naming the limit. Here the limit is 1,000 so a small corpus passes it.
 */
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defineAction } from "../../src/core/action.js";
import { loadConfig } from "../../src/config.js";
import { tokenCounter } from "../../src/retrieve/token-counter.js";
import { actions as productActions } from "../../tools/index.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const LIMIT = 1000;
const count = tokenCounter("o200k_base");

/** A tool with no budget whose answer is as long as asked: `words` words. */
const wordsAction = defineAction({
  name: "test_words",
  family: "test",
  version: "1.0.0",
  title: "Words",
  description: "Returns as many words as asked.",
  input: z.object({ words: z.number().int().min(0).max(100_000) }),
  output: z.object({ text: z.string() }),
  access: "viewer",
  readOnly: true,
  run: async (input) => ({ text: Array.from({ length: input.words }, (_, i) => `word${i}`).join(" ") }),
});

const PEOPLE = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena"];
const THINGS = ["ledger", "refund", "credit note", "payout", "chargeback", "dunning letter", "tax form", "receipt", "statement", "quote"];
const PLACES = ["Lisbon", "Osaka", "Nairobi", "Quito", "Tallinn", "Perth", "Bergen", "Accra", "Lyon", "Hanoi", "Tucson"];

/** Sixty notes about invoices, each worded apart (no near-duplicates): far more than 1,000 tokens of rows. */
const NOTES = Array.from({ length: 60 }, (_, i) => {
  const who = PEOPLE[i % PEOPLE.length]!;
  const what = THINGS[(i * 7) % THINGS.length]!;
  const where = PLACES[(i * 5) % PLACES.length]!;
  return [
    `notes/invoice-${i}.md`,
    `# Invoices in ${where}, note ${i}\n\n${who} checks every invoice and ${what} of the ${where} office before the ${i + 1}th.\n\n` +
      `Invoices above ${(i + 1) * 350} euros from ${where} wait for ${who}'s second signature.\n`,
  ] as const;
});

/** The tokens the client hands on: each text block's text, any other block as JSON. */
const received = (result: Record<string, unknown>) =>
  (result.content as Array<{ type: string; text?: string }>).reduce((n, b) => n + count(b.type === "text" ? b.text! : JSON.stringify(b)), 0);

describe("the MCP result limit", () => {
  let w: TestWorld;
  let client: Client;
  beforeAll(async () => {
    w = await createTestWorld({ actions: [...productActions, wordsAction], env: { PKS_RATE_LIMIT: "100000", PKS_MAX_RESULT_TOKENS: String(LIMIT) } });
    await ingest(w, NOTES.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
    client = await connectMcpClient(w);
  });
  afterAll(async () => {
    await client.close();
    await w.close();
  });

  it("reads PKS_MAX_RESULT_TOKENS (25,000 by default, at least 1,000)", () => {
    expect(loadConfig({ root: "/r" }, {}).maxResultTokens).toBe(25_000);
    expect(w.app.deps.config.maxResultTokens).toBe(LIMIT);
    expect(() => loadConfig({ root: "/r" }, { PKS_MAX_RESULT_TOKENS: "10" })).toThrow(/maxResultTokens/);
  });

  it("memory_query with budget 1,000,000: clamped, the whole result within the limit, and the answer says so", async () => {
    const result = await client.callTool({ name: "memory_query", arguments: { query: "Who checks invoices, and which invoices wait for a second signature?", budget: 1_000_000 } });
    expect(result.isError).toBeFalsy();
    expect(received(result)).toBeLessThanOrEqual(LIMIT);
    const body = result.structuredContent as { result: { budget: number; used: number; cells: unknown[] } };
    expect(body.result.budget).toBeLessThanOrEqual(LIMIT);
    expect(body.result.used).toBeLessThanOrEqual(body.result.budget);
    expect(body.result.cells.length).toBeGreaterThan(0);
    expect(result._meta?.["pks/budget"]).toEqual({ asked: 1_000_000, kept: body.result.budget, maxResultTokens: LIMIT });
    const texts = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "");
    expect(texts.at(-1)).toBe(
      `budget 1000000 clamped to ${body.result.budget}: one MCP result holds at most ${LIMIT} tokens (PKS_MAX_RESULT_TOKENS); ask again for what the answer left out`,
    );
  });

  it("a budget within the limit is kept as asked, with no note", async () => {
    const result = await client.callTool({ name: "memory_query", arguments: { query: "invoice refunds", budget: 300 } });
    expect((result.structuredContent as { result: { budget: number } }).result.budget).toBe(300);
    expect(result._meta?.["pks/budget"]).toBeUndefined();
    expect(received(result)).toBeLessThanOrEqual(LIMIT);
  });

  it("code_context_pack, which packs to a budget too, is clamped the same way", async () => {
    const result = await client.callTool({ name: "code_context_pack", arguments: { task: "issue invoices and approve refunds", budget: 500_000 } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(received(result)).toBeLessThanOrEqual(LIMIT);
    expect((result._meta?.["pks/budget"] as { kept: number }).kept).toBeLessThanOrEqual(LIMIT);
  });

  it("an answer with no budget to clamp is refused with 413, naming the limit; a small one passes", async () => {
    const big = await client.callTool({ name: "test_words", arguments: { words: 2000 } });
    expect(big.isError).toBe(true);
    const error = (big.structuredContent as { error: { status: number; code: string; message: string } }).error;
    expect(error.status).toBe(413);
    expect(error.code).toBe("result_too_large");
    expect(error.message).toMatch(/^the answer is \d+ tokens, over the 1000 one MCP result may hold \(PKS_MAX_RESULT_TOKENS\): ask for less/);
    const small = await client.callTool({ name: "test_words", arguments: { words: 20 } });
    expect(small.isError).toBeFalsy();
  });
});
