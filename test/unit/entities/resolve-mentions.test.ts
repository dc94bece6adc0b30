import { describe, expect, it } from "vitest";
import type { EntityMention } from "../../../src/entities/entity-mention.js";
import type { LocatedMention } from "../../../src/entities/resolve-mentions.js";
import { resolveMentions } from "../../../src/entities/resolve-mentions.js";

function at(cell: string, name: string, kind: EntityMention["kind"] = "concept", extra: Partial<EntityMention> = {}): LocatedMention<string> {
  return { cell, mention: { name, kind, source: "nlp", ...extra } };
}

describe("resolveMentions", () => {
  it("merges case, plural, possessive, punctuation and 'the' variants", () => {
    const entities = resolveMentions([
      at("c1", "rate limits"),
      at("c2", "Rate limit"),
      at("c3", "the rate limit's"),
      at("c4", '"Rate-limits",'),
    ]);
    expect(entities).toHaveLength(1);
    expect(entities[0]).toMatchObject({ name: "Rate limit", normName: "rate limit", cells: ["c1", "c2", "c3", "c4"], mentionCount: 4 });
  });

  it("shows the most frequent capitalised spelling", () => {
    const entities = resolveMentions([at("a", "hono", "product"), at("b", "Hono", "product"), at("c", "HONO", "product"), at("d", "Hono", "product")]);
    expect(entities.map((e) => e.name)).toEqual(["Hono"]);
  });

  it("keeps the first spelling on a tie and a lower-case one when no other exists", () => {
    expect(resolveMentions([at("a", "Valgrind"), at("b", "VALGRIND")])[0]?.name).toBe("Valgrind");
    expect(resolveMentions([at("a", "middleware"), at("b", "middlewares")])[0]?.name).toBe("middleware");
  });

  it("joins declared aliases and shows the long name", () => {
    const entities = resolveMentions([
      at("a", "Model Context Protocol", "concept", { source: "definition" }),
      at("a", "MCP", "concept", { source: "definition", aliasOf: "Model Context Protocol" }),
      at("b", "MCP", "concept"),
      at("c", "MCP", "concept"),
      at("d", "model context protocols", "concept"),
    ]);
    expect(entities).toHaveLength(1);
    expect(entities[0]).toMatchObject({ name: "Model Context Protocol", aliases: ["MCP"], normNames: ["model context protocol", "mcp"], cells: ["a", "b", "c", "d"] });
  });

  it("joins chains of aliases", () => {
    const entities = resolveMentions([
      at("a", "throttling", "concept", { aliasOf: "rate limiting" }),
      at("b", "rate limiting"),
      at("c", "RL", "concept", { aliasOf: "throttling" }),
    ]);
    expect(entities).toHaveLength(1);
    expect(entities[0]?.aliases.sort()).toEqual(["RL", "throttling"]);
  });

  it("takes the majority kind and breaks ties by precedence", () => {
    const majority = resolveMentions([at("a", "Hono", "product"), at("b", "Hono", "product"), at("c", "Hono", "symbol")]);
    expect(majority[0]?.kind).toBe("product");
    const tie = resolveMentions([at("a", "Mercury", "product"), at("b", "Mercury", "place")]);
    expect(tie[0]?.kind).toBe("place");
    const code = resolveMentions([at("a", "Router", "product"), at("b", "Router", "symbol")]);
    expect(code[0]?.kind).toBe("symbol");
  });

  it("leaves out what only a sentence start capitalised", () => {
    const entities = resolveMentions([at("a", "Traditionally", "product", { hint: "sentence-start" }), at("b", "Traditionally", "product", { hint: "sentence-start" })]);
    expect(entities).toEqual([]);
  });

  it("keeps a sentence-start mention once the name is confirmed elsewhere, and its cell", () => {
    const entities = resolveMentions([at("a", "Valgrind", "product", { hint: "sentence-start" }), at("b", "Valgrind", "product")]);
    expect(entities[0]).toMatchObject({ name: "Valgrind", cells: ["a", "b"] });
  });

  it("keeps a capitalised common word only when two cells use it", () => {
    expect(resolveMentions([at("a", "Cargo", "product", { hint: "common-word" })])).toEqual([]);
    const twice = resolveMentions([at("a", "Cargo", "product", { hint: "common-word" }), at("b", "Cargo", "product", { hint: "common-word" })]);
    expect(twice.map((e) => e.name)).toEqual(["Cargo"]);
  });

  it("lets confident mentions choose the name and kind over doubtful ones", () => {
    const entities = resolveMentions([
      at("a", "Turso", "product", { hint: "sentence-start" }),
      at("b", "Turso", "product", { hint: "sentence-start" }),
      at("c", "turso", "organization"),
    ]);
    expect(entities[0]).toMatchObject({ name: "turso", kind: "organization" });
  });

  it("lists entities in order of first mention, with the sources that found them", () => {
    const entities = resolveMentions([
      at("a", "Deno", "product"),
      at("a", "Bun", "product"),
      { cell: "b", mention: { name: "Deno", kind: "product", source: "heading" } },
    ]);
    expect(entities.map((e) => [e.name, e.sources])).toEqual([
      ["Deno", ["nlp", "heading"]],
      ["Bun", ["nlp"]],
    ]);
  });

  it("ignores mentions whose names fold to nothing", () => {
    expect(resolveMentions([at("a", "—"), at("b", "()")])).toEqual([]);
  });

  it("counts a cell once however often it names the entity", () => {
    const entities = resolveMentions([at("a", "Deno"), at("a", "deno"), at("b", "Deno")]);
    expect(entities[0]).toMatchObject({ cells: ["a", "b"], mentionCount: 3 });
  });
});
