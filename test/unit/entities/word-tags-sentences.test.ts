import nlp from "compromise";
import { describe, expect, it } from "vitest";
import { tagsOf, tagWords } from "../../../src/entities/word-tags.js";

/** The tags the full tagger gives `word` anywhere in `text`, tagging the text whole. */
function wholeTextTags(text: string, word: string): string[] {
  const out = new Set<string>();
  for (const sentence of nlp(text).json({ terms: { text: true, tags: true } }) as Array<{ terms: Array<{ text: string; tags: string[] }> }>) {
    for (const term of sentence.terms) if (term.text.toLowerCase() === word) for (const tag of term.tags) out.add(tag);
  }
  return [...out].sort();
}

describe("tagWords: sentences tagged only when asked about, with the whole text's tags", () => {
  const text = "Run the tests before you push. The last run failed on Windows. Dr. Smith fixed it in Paris, e.g. by retrying.";

  it.each(["run", "windows", "smith", "paris", "retrying", "dr", "the"])("%s", (word) => {
    expect([...tagsOf(tagWords(text), word)].sort()).toEqual(wholeTextTags(text, word));
  });

  it("merges a word's tags over the sentences it appears in", () => {
    const tags = tagsOf(tagWords(text), "run");
    expect(tags.has("Verb")).toBe(true);
    expect(tags.has("Noun")).toBe(true);
  });

  it("has no tags for a word the text does not contain", () => {
    expect(tagsOf(tagWords(text), "london").size).toBe(0);
  });
});
