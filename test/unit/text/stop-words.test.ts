import { describe, expect, it } from "vitest";
import { STOP_WORDS, withStopWords } from "../../../src/text/stop-words.js";

describe("stop words", () => {
  it("are lower-case single words", () => {
    expect(STOP_WORDS.size).toBeGreaterThan(100);
    for (const word of STOP_WORDS) expect(word).toMatch(/^[a-z]+$/);
    expect(STOP_WORDS.has("the")).toBe(true);
    expect(STOP_WORDS.has("invoice")).toBe(false);
  });

  it("take a user's own words on top of the base list", () => {
    const noise = withStopWords(`bug
      traceback  fix`);
    expect([...STOP_WORDS].every((w) => noise.has(w))).toBe(true);
    expect(noise.size).toBe(STOP_WORDS.size + 3);
    expect(noise.has("traceback")).toBe(true);
    expect(withStopWords("")).toEqual(STOP_WORDS);
  });
});
