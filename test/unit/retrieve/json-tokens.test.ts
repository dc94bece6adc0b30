import fc from "fast-check";
import { get_encoding } from "tiktoken";
import { describe, expect, it } from "vitest";
import { jsonRowCounter } from "../../../src/retrieve/json-tokens.js";
import { tokenCounter } from "../../../src/retrieve/token-counter.js";

const declaration = fc.record({
  symbol: fc.stringMatching(/^[A-Za-z_$][\w$.]{0,40}$/),
  symbolId: fc.stringMatching(/^sym_[\w-]{22}$/),
  kind: fc.constantFrom("function", "method", "class", "variable"),
  fileId: fc.stringMatching(/^fil_[\w]{22}$/),
  filepath: fc.stringMatching(/^[\w./-]{1,120}$/),
  lines: fc.tuple(fc.nat(5000), fc.nat(5000)),
  body: fc.string({ maxLength: 200 }),
});
const file = fc.record({
  fileId: fc.stringMatching(/^fil_[\w]{22}$/),
  filepath: fc.stringMatching(/^[\w./-]{1,120}$/),
  reason: fc.constantFrom("match", "referenced", "imports"),
});

describe("jsonRowCounter", () => {
  for (const encoding of ["o200k_base", "cl100k_base"] as const) {
    it(`${encoding}: equals tiktoken on compact pack JSON, as the shared counter now does too`, () => {
      const reference = get_encoding(encoding);
      const shared = tokenCounter(encoding);
      const exact = jsonRowCounter(shared);
      fc.assert(
        fc.property(fc.array(declaration, { maxLength: 12 }), fc.array(file, { maxLength: 12 }), (declarations, files) => {
          const text = JSON.stringify({ declarations, files });
          expect(exact(text)).toBe(reference.encode(text).length);
        }),
        { numRuns: 150 },
      );
      const files = Array.from({ length: 10 }, (_, i) => ({ fileId: `fil_${"x".repeat(21)}${i}`, filepath: `src/f${i}.ts`, reason: "match" }));
      const text = JSON.stringify({ declarations: [], files });
      expect(shared(text)).toBe(reference.encode(text).length);
      expect(exact(text)).toBe(reference.encode(text).length);
      reference.free();
    });
  }

  it("never splits inside a string value that quotes a key", () => {
    const text = JSON.stringify({ declarations: [{ symbol: "x", body: 'f({"body":1,"kind":2})' }], files: [] });
    const pieces: string[] = [];
    jsonRowCounter((piece) => (pieces.push(piece), 0))(text);
    expect(pieces.join("")).toBe(text);
    expect(pieces.some((p) => p.startsWith('body\\"'))).toBe(false);
    expect(pieces).toHaveLength(5);
  });
});
