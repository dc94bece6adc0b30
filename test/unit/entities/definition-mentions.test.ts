import { describe, expect, it } from "vitest";
import { definitionMentions, isInitialism } from "../../../src/entities/definition-mentions.js";
import { tagWords } from "../../../src/entities/word-tags.js";

function define(sentence: string) {
  return definitionMentions(sentence, tagWords(sentence)).map((m) => (m.aliasOf === undefined ? `${m.name}:${m.kind}` : `${m.name}:${m.kind}=${m.aliasOf}`));
}

describe("definitionMentions", () => {
  it.each([
    ["Memcheck is a memory error detector.", ["Memcheck:product", "memory error detector:concept"]],
    ["DRD is also a thread error detector.", ["DRD:product", "thread error detector:concept"]],
    ["Valgrind is an instrumentation framework for building tools.", ["Valgrind:product", "instrumentation framework:concept"]],
    ["Hono - means flame in Japanese - is a small, simple, and ultrafast web framework built on Web Standards.", ["Hono:product", "web framework:concept"]],
    ["DHAT is a different kind of heap profiler.", ["DHAT:product", "heap profiler:concept"]],
    ["Callgrind is a call-graph generating cache profiler.", ["Callgrind:product", "cache profiler:concept"]],
    ["The builder is the program that runs the rules.", ["builder:concept"]],
    ["Lackey is an example tool that illustrates instrumentation.", ["Lackey:product"]],
    ["Nulgrind is the minimal Valgrind tool.", ["Nulgrind:product"]],
    ["Embedded replicas are local copies of a remote database.", ["Embedded replicas:concept"]],
  ])("%s", (sentence, expected) => {
    expect(define(sentence)).toEqual(expected);
  });

  it.each([
    "This is the default.",
    "It is always permissible for a builder to ignore this field.",
    "The case sensitive values are defined as follows.",
    "Keywords are used by tools.",
    "Contributions are welcome.",
    "Valgrind is closely tied to details of the CPU.",
  ])("%s defines nothing", (sentence) => {
    expect(define(sentence)).toEqual([]);
  });

  it("declares aliases with 'also called', 'aka' and 'short for'", () => {
    expect(define("Rate limiting, also called throttling, protects the server.")).toEqual([
      "Rate limiting:concept",
      "throttling:concept=Rate limiting",
    ]);
    expect(define("We use the Model Context Protocol, also known as MCP, everywhere.")).toEqual([
      "Model Context Protocol:concept",
      "MCP:concept=Model Context Protocol",
    ]);
    expect(define("JSR (short for JavaScript Registry) hosts packages.")).toEqual([
      "JavaScript Registry:product",
      "JSR:product=JavaScript Registry",
    ]);
  });

  it("takes an acronym in parentheses as an alias of the long name, either way round", () => {
    expect(define("The Model Context Protocol (MCP) connects models to tools.")).toEqual([
      "Model Context Protocol:concept",
      "MCP:concept=Model Context Protocol",
    ]);
    expect(define("Clients speak MCP (Model Context Protocol) to servers.")).toEqual([
      "Model Context Protocol:concept",
      "MCP:concept=Model Context Protocol",
    ]);
  });

  it("ignores parentheses that do not spell an acronym", () => {
    expect(define("The tool (see below) runs fast.")).toEqual([]);
    expect(define("It uses the Web API (WXY) too.")).toEqual([]);
  });
});

describe("isInitialism", () => {
  it.each([
    ["MCP", "Model Context Protocol", true],
    ["ORM", "Object-Relational Mapping", true],
    ["JSON", "JavaScript Object Notation", true],
    ["DoD", "Department of Defense", true],
    ["MCP", "Model Protocol", false],
    ["X", "Xylophone", false],
  ])("%s ~ %s → %s", (short, long, expected) => {
    expect(isInitialism(short, long)).toBe(expected);
  });
});
