import { readFileSync } from "node:fs";
import fc from "fast-check";
import { get_encoding } from "tiktoken";
import { describe, expect, it } from "vitest";
import { tokenCounter } from "../../../src/retrieve/token-counter.js";

const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

const SAMPLES = [
  "",
  "hello world",
  '{"cellId":"cel_1AbC","text":"Payments settle nightly. Refunds take five days."}',
  "Ünïcödé, emoji 👩‍💻 and 日本語のテキスト, mixed\ttabs\nand newlines.",
  "function parseConfig(path: string): Config { return JSON.parse(readFileSync(path, 'utf8')); }",
  `sha256:${"0123456789abcdef".repeat(40)} and ${"1234567890".repeat(50)}`,
  readFileSync(new URL("../../../README.md", import.meta.url), "utf8"),
  readFileSync(new URL("../../../src/errors.ts", import.meta.url), "utf8"),
];

/** Rows as the code pack serializes them. */
const declaration = fc.record({
  symbol: fc.stringMatching(/^[A-Za-z_$][\w$.]{0,40}$/),
  symbolId: fc.stringMatching(/^sym_[\w-]{22}$/),
  kind: fc.constantFrom("function", "method", "class", "variable"),
  fileId: fc.stringMatching(/^fil_[\w]{22}$/),
  filepath: fc.stringMatching(/^[\w./-]{1,120}$/),
  lines: fc.tuple(fc.nat(5000), fc.nat(5000)),
  body: fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[0-9a-f]{200,400}$/)),
});
const file = fc.record({
  fileId: fc.stringMatching(/^fil_[\w]{22}$/),
  filepath: fc.stringMatching(/^[\w./-]{1,120}$/),
  reason: fc.constantFrom("match", "referenced", "imports"),
});

describe("token counting", () => {
  for (const encoding of ENCODINGS) {
    it(`${encoding}: identical to tiktoken on prose, code, JSON, hashes and unicode`, () => {
      const reference = get_encoding(encoding);
      const count = tokenCounter(encoding);
      for (const s of SAMPLES) expect(count(s), s.slice(0, 40)).toBe(reference.encode_ordinary(s).length);
      reference.free();
    });

    it(`${encoding}: identical to tiktoken on serialized pack rows`, () => {
      const reference = get_encoding(encoding);
      const count = tokenCounter(encoding);
      fc.assert(
        fc.property(fc.array(declaration, { maxLength: 12 }), fc.array(file, { maxLength: 12 }), (declarations, files) => {
          const text = JSON.stringify({ declarations, files });
          expect(count(text)).toBe(reference.encode_ordinary(text).length);
        }),
        { numRuns: 150 },
      );
      const cells = JSON.stringify({ cells: Array.from({ length: 40 }, (_, i) => ({ cellId: `cel_${i}`, text: `https://example.com/a/b/c?d=${i}` })) });
      expect(cells.length).toBeGreaterThan(300);
      expect(count(cells)).toBe(reference.encode_ordinary(cells).length);
      reference.free();
    });

    it(`${encoding}: remembered pieces count as the whole text counts them, in any text and again`, () => {
      const reference = get_encoding(encoding);
      const count = tokenCounter(encoding);
      // Short strings over a small alphabet of letters, digits, marks, apostrophes and white space meet the same pieces in new neighbours.
      const alphabet = fc.constantFrom("a", "B", "é", "日", "1", "23", "'s", "'T", " ", "  ", "\t", "\n", "\r\n", "/", ".", ",", '"', "{", "}", "-", "\u00a0", "👩‍💻");
      fc.assert(
        fc.property(fc.array(alphabet, { maxLength: 60 }), (parts) => {
          const text = parts.join("");
          const exact = reference.encode_ordinary(text).length;
          expect(count(text)).toBe(exact);
          expect(count(text)).toBe(exact);
        }),
        { numRuns: 400 },
      );
      reference.free();
    });

    it(`${encoding}: ASCII cut quickly beside letters, marks, digits and spaces of other scripts cuts as the whole pattern`, () => {
      const reference = get_encoding(encoding);
      const count = tokenCounter(encoding);
      // Contractions, capitals and digit runs within a few characters of non-ASCII ones: where the quick ASCII cut must give way.
      const parts = fc.constantFrom("ab", "CD", "Xy", "'ll", "'ve", "'s", "'", "123", "4", " ", "\n", ".", "/", "…", "é", "É", "\u0301", "ǅ", "ʰ", "Ω", "ω", "٣", "½", "\u3000", "\u2028", "\u00a0", "日本");
      fc.assert(
        fc.property(fc.array(parts, { maxLength: 40 }), (xs) => {
          const text = xs.join("");
          expect(count(text)).toBe(reference.encode_ordinary(text).length);
        }),
        { numRuns: 400 },
      );
      reference.free();
    });

    it(`${encoding}: counts text shaped like a special token as ordinary text`, () => {
      const reference = get_encoding(encoding);
      const text = "a model stops at <|endoftext|> or <|fim_prefix|>";
      expect(tokenCounter(encoding)(text)).toBe(reference.encode_ordinary(text).length);
      reference.free();
    });

    it(`${encoding}: counts the text around a long pre-token as the whole counts it`, () => {
      const reference = get_encoding(encoding);
      const count = tokenCounter(encoding);
      // Slices of 256 dashes happen to cut where tokens end, so these stay exact; the white space before the rule must not join up.
      for (const text of [`x \t${"-".repeat(1024)}\n  y`, `a  ${" ".repeat(768)}b`, `k \t${"/".repeat(512)} z`]) {
        expect(count(text), JSON.stringify(text.slice(0, 4))).toBe(reference.encode_ordinary(text).length);
      }
      reference.free();
    });
  }

  it("guards huge runs: counted in slices, quickly, never fewer tokens than exact on a run of one letter", () => {
    const count = tokenCounter("o200k_base");
    expect(count("a".repeat(1_000_000))).toBeGreaterThan(0);
    expect(count("-".repeat(200_000))).toBeGreaterThan(0);
    expect(count(" ".repeat(200_000))).toBeGreaterThan(0);
    // Past ASCII and in line breaks with slashes too: letters, punctuation and spaces of other scripts, `\r\n/` runs.
    for (const run of ["日本".repeat(100_000), "—".repeat(200_000), "\u00a0".repeat(200_000), "\r\n/".repeat(70_000)]) expect(count(run)).toBeGreaterThan(0);
    const reference = get_encoding("o200k_base");
    const small = "x".repeat(5000);
    expect(count(small)).toBeGreaterThanOrEqual(reference.encode_ordinary(small).length);
    reference.free();
  });
});
