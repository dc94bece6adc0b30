import { readFileSync } from "node:fs";
import nlp from "compromise";
import { describe, expect, it } from "vitest";
import { lexiconTag, tagWords } from "../../../src/entities/word-tags.js";

/** Paragraphs of prose with names, places, tools and everyday words. */
const paragraphs = ["readme.md", "guide.rst", "only-headings.md"]
  .flatMap((f) => readFileSync(new URL(`../../golden/readers/input/${f}`, import.meta.url), "utf8").split(/\n\s*\n/))
  .concat([
    "Alice met Bob in Paris to discuss Google's new release with the Acme team.",
    "Dr. Jane Smith from Oxford University presented at PyCon in Portland, Oregon.",
    "We moved from Jenkins to GitHub Actions last March; Maria signed off on it.",
  ])
  .map((p) => p.trim())
  .filter((p) => p.length > 0);

/** What the tagger's ES module says about each word, merged as `tagWords` merges it. */
function esmTags(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const sentence of nlp(text).json({ terms: { text: true, tags: true } }) as Array<{ terms: Array<{ text: string; tags: string[] }> }>) {
    for (const term of sentence.terms) {
      const key = term.text.toLowerCase();
      out.set(key, new Set([...(out.get(key) ?? []), ...term.tags]));
    }
  }
  return out;
}

describe("word tags: the tagger loaded on first use tags as its ES module does", () => {
  it("gives every word of every paragraph the same tags", () => {
    expect(paragraphs.length).toBeGreaterThan(10);
    for (const text of paragraphs) {
      const tags = tagWords(text);
      for (const [word, expected] of esmTags(text)) expect([...(tags.get(word) ?? [])].sort(), `${word} in ${text.slice(0, 40)}`).toEqual([...expected].sort());
    }
  });

  it("knows the same words by heart", () => {
    const lexicon = (nlp.model() as { one: { lexicon: Record<string, string | string[]> } }).one.lexicon;
    for (const word of ["issue", "paris", "google", "run", "john", "because"]) {
      const tag = lexicon[word];
      expect(lexiconTag(word), word).toBe(Array.isArray(tag) ? tag.join(",") : tag);
    }
  });
});
