import { describe, expect, it } from "vitest";
import { objectMembers } from "../../../src/retrieve/memory/code-rows.js";
import { feedbackTerms } from "../../../src/retrieve/memory/feedback-terms.js";
import { ftsAllOf, ftsAnyOf } from "../../../src/retrieve/query-terms.js";

describe("objectMembers", () => {
  it("lists the member lines of an object type at its own nesting level, multi-line members by their first line", () => {
    const text = [
      "type CORSOptions = {",
      "  origin?:",
      "    | string",
      "    | ((origin: string) => string | undefined)",
      "  allowMethods?: string[] | ((origin: string) => Promise<string[]>)",
      "  /** Seconds a preflight answer is cached. */",
      "  maxAge?: number;",
      "  readonly credentials?: boolean,",
      "  nested?: { inner: number }",
      "  'x-header'?: string",
      "  [key: string]: unknown",
      "  onError(err: Error): void",
      "}",
    ].join("\n");
    expect(objectMembers(text)).toEqual([
      "origin?:",
      "allowMethods?: string[] | ((origin: string) => Promise<string[]>)",
      "maxAge?: number",
      "readonly credentials?: boolean",
      "nested?: { inner: number }",
      "'x-header'?: string",
      "[key: string]: unknown",
      "onError(err: Error): void",
    ]);
  });

  it("lists nothing for a text with no braced body or members of a deeper body only", () => {
    expect(objectMembers("type Id = string")).toEqual([]);
    expect(objectMembers("type Pair = [\n  { a: number },\n  { b: number }\n]")).toEqual([]);
    expect(objectMembers("type Wrap = {\n  inner: {\n    deep: number\n  }\n}")).toEqual(["inner: {"]);
  });
});

describe("feedbackTerms", () => {
  it("takes the words the best documents use most, the top document weighing most, query words and stop words left out", () => {
    const terms = feedbackTerms(
      [
        { score: 12, texts: ["Hypertension is treated with antihypertensive drugs.", "Antihypertensive therapy lowers hypertension risk."] },
        { score: 11, texts: ["Blood pressure falls with antihypertensive therapy."] },
        { score: 2, texts: ["Gardening gardening gardening gardening."] },
      ],
      ["blood", "pressure"],
      3,
    );
    expect(terms).toEqual(["antihypertensive", "hypertension", "therapy"]);
  });

  it("gives nothing without documents, and never numbers or words under three letters", () => {
    expect(feedbackTerms([], ["x"])).toEqual([]);
    expect(feedbackTerms([{ score: 1, texts: ["In 2019 an mi at 42 of ok"] }], [])).toEqual([]);
  });
});

describe("FTS5 expressions", () => {
  it("quotes every term, doubling quotes inside, joined by OR or AND", () => {
    expect(ftsAnyOf(["router", 'say"hi'])).toBe('"router" OR "say""hi"');
    expect(ftsAllOf(["router", "pick", "handler"])).toBe('"router" AND "pick" AND "handler"');
  });
});
