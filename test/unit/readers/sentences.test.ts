import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capCellText, MAX_CELL_CHARS, splitSentences } from "../../../src/readers/common/sentences.js";
import { countSegmented } from "../../support/work-count.js";

/** Pieces random prose is built from: words, stops, abbreviations, long runs. */
const UNITS = ["a", "B", ".", " ", "\n", "!", "Dr. ", "e.g. ", "x".repeat(700)];

describe("splitSentences", () => {
  it("splits plain prose and collapses whitespace", () => {
    expect(splitSentences("  One here.\n\tTwo   there!  Three?  ")).toEqual(["One here.", "Two there!", "Three?"]);
  });

  it("drops empty and whitespace-only input", () => {
    expect(splitSentences("")).toEqual([]);
    expect(splitSentences(" \n\t \n")).toEqual([]);
  });

  it.each([
    ["Dr. Smith went home. He slept.", ["Dr. Smith went home.", "He slept."]],
    ["Mr. Jones, Ms. Lee and Prof. X agree. Done.", ["Mr. Jones, Ms. Lee and Prof. X agree.", "Done."]],
    ["Use a tool, e.g. Grep or Sed. Then stop.", ["Use a tool, e.g. Grep or Sed.", "Then stop."]],
    ["See Fig. 3 and p. 12 of Smith et al. 2020. Next.", ["See Fig. 3 and p. 12 of Smith et al. 2020.", "Next."]],
    ["St. Louis is a city. No. 5 is here.", ["St. Louis is a city.", "No. 5 is here."]],
    ["J. R. R. Tolkien wrote it. Then Plan B. Done.", ["J. R. R. Tolkien wrote it.", "Then Plan B.", "Done."]],
    ["Version 1.2.3 is out. It works.", ["Version 1.2.3 is out.", "It works."]],
  ])("keeps abbreviations inside sentences: %s", (input, expected) => {
    expect(splitSentences(input)).toEqual(expected);
  });

  it("still ends sentences at words that only look like abbreviations", () => {
    expect(splitSentences("Answer no. Then leave.")).toEqual(["Answer no.", "Then leave."]);
  });

  it("caps a sentence with no boundary at whitespace", () => {
    const words = Array.from({ length: 1_000 }, (_, i) => `word${i}`).join(" ");
    const pieces = splitSentences(words);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    expect(pieces.join(" ")).toBe(words);
  });

  // Linearity guards count work instead of timing it: the segmenter slows down with the length of
  // what it walks, so each character is handed to it at most twice, a window of bounded size at a time.
  const expectLinearSegmenting = (work: { total: number; longest: number }, length: number) => {
    expect(work.total).toBeLessThanOrEqual(2 * length);
    expect(work.longest).toBeLessThanOrEqual(2 * MAX_CELL_CHARS);
  };

  it("hard-cuts a 2 MB run of one character, segmenting each character at most twice", () => {
    const text = "a".repeat(2_000_000);
    const { result: pieces, ...work } = countSegmented(() => splitSentences(text));
    expectLinearSegmenting(work, text.length);
    expect(pieces).toHaveLength(1_000);
    expect(pieces.every((p) => p.length === MAX_CELL_CHARS)).toBe(true);
  });

  it("segments 2 MB of prose in linear work", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(45_000);
    const { result: pieces, ...work } = countSegmented(() => splitSentences(text));
    expectLinearSegmenting(work, text.length);
    expect(pieces).toHaveLength(45_000);
    expect(pieces[44_999]).toBe("The quick brown fox jumps over the lazy dog.");
  });

  it.each(["A. ", "Dr. ", "No. 1. ", "! "])("stays linear on a 1 MB run of %j", (unit) => {
    const text = unit.repeat(Math.floor(1_000_000 / unit.length));
    const { result: pieces, ...work } = countSegmented(() => splitSentences(text));
    expectLinearSegmenting(work, text.length);
    expect(pieces.every((p) => p.length <= MAX_CELL_CHARS)).toBe(true);
    expect(pieces.join(" ").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
  });

  it("finds the same sentences across segmentation windows", () => {
    const sentences = Array.from({ length: 3_000 }, (_, i) => `Sentence ${i} says ${"so ".repeat(i % 37)}much.`);
    expect(splitSentences(sentences.join(" "))).toEqual(sentences);
  });

  it("never splits a surrogate pair", () => {
    const pieces = splitSentences("\u{1F600}".repeat(3_000));
    expect(pieces.join("")).toBe("\u{1F600}".repeat(3_000));
    for (const piece of pieces) expect(piece).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it("keeps every visible character, in order, within the cap", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...UNITS) }), (text) => {
        const pieces = splitSentences(text);
        expect(pieces.join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
          expect(piece).toBe(piece.trim());
          expect(piece).not.toMatch(/\s\s/);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("capCellText", () => {
  it("leaves short text whole", () => {
    expect(capCellText("short text")).toEqual(["short text"]);
    expect(capCellText("")).toEqual([]);
  });

  it("cuts long text into pieces at spaces", () => {
    const text = `${"x".repeat(1_500)} ${"y".repeat(1_500)}`;
    expect(capCellText(text)).toEqual(["x".repeat(1_500), "y".repeat(1_500)]);
  });
});
