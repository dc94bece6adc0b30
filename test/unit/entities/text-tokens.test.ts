import { describe, expect, it } from "vitest";
import { textTokens } from "../../../src/entities/text-tokens.js";

describe("textTokens", () => {
  it("peels punctuation and marks where clauses start", () => {
    const tokens = textTokens('Hono is fast. It runs on "Deno", Bun: everywhere - Really (see docs).');
    expect(tokens.map((t) => [t.core, t.initial])).toEqual([
      ["Hono", true],
      ["is", false],
      ["fast", false],
      ["It", true],
      ["runs", false],
      ["on", false],
      ["Deno", true],
      ["Bun", false],
      ["everywhere", true],
      ["", false],
      ["Really", true],
      ["see", true],
      ["docs", false],
    ]);
    expect(tokens[6]).toMatchObject({ lead: '"', trail: '",' });
  });

  it("keeps brackets that belong to the word", () => {
    expect(textTokens("See fakeroot(1), app.request() and dpkg/target/<target-name>:").map((t) => t.core)).toEqual([
      "See",
      "fakeroot(1)",
      "app.request()",
      "and",
      "dpkg/target/<target-name>",
    ]);
  });

  it("does not end a sentence at an abbreviation, and joins names over '&'", () => {
    const tokens = textTokens("Tools, e.g. Memcheck & Associates Inc. exist");
    expect(tokens.map((t) => [t.core, t.initial])).toEqual([
      ["Tools", true],
      ["e.g", false],
      ["Memcheck", false],
      ["&", false],
      ["Associates", false],
      ["Inc", false],
      ["exist", false],
    ]);
  });

  it("starts a clause after an emoji or a bullet", () => {
    expect(textTokens("🔌 Works offline").map((t) => [t.core, t.initial])).toEqual([
      ["", true],
      ["Works", true],
      ["offline", false],
    ]);
  });
});
