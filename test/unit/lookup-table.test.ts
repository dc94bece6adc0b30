/**
 * Text from outside used as a table key: `__proto__`, `constructor`,
 * `toString` and `hasOwnProperty` are names like any other, never entries
 * inherited from `Object.prototype`.
 */
import { describe, expect, it } from "vitest";
import { classifyFile, defaultContentType } from "../../src/ingest/accept/media-types.js";
import { fenceMediaType } from "../../src/readers/common/fence-media-type.js";
import { htmlText } from "../../src/readers/markdown/markdown-inline.js";
import { stem } from "../../src/retrieve/structured/field-terms.js";
import { numbersIn, unitOf } from "../../src/retrieve/structured/typed-values.js";
import { fileKeysFor } from "../../src/code/module-keys.js";
import { lookupTable } from "../../src/lookup.js";

const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

describe("tables keyed by outside text", () => {
  it("a table answers only its own entries", () => {
    const t = lookupTable({ a: 1 });
    expect(t.a).toBe(1);
    for (const n of NAMES) expect(t[n]).toBeUndefined();
  });

  it.each(NAMES)("a file named %s is a plain file of its bytes", (name) => {
    expect(defaultContentType(name)).toBe("application/octet-stream");
    expect(classifyFile(name, "text/plain", new TextEncoder().encode("hello"))).toBe("document");
    expect(classifyFile(`docs/${name}`, "application/octet-stream", new Uint8Array([0, 1, 2, 255]))).toBe("binary");
  });

  it.each(NAMES)("a fence, an entity, a word and a module path named %s are unknown names", (name) => {
    expect(fenceMediaType(name)).toMatch(/^text\/[a-z0-9.+-]+$/);
    expect(htmlText(`a &${name.toLowerCase()}; b`)).toBe(`a &${name.toLowerCase()}; b`);
    expect(typeof stem(name)).toBe("string");
    expect(unitOf(name.toLowerCase())).toBeUndefined();
    expect(numbersIn(`${name.toLowerCase()} files`)).toEqual([]);
    expect(() => fileKeysFor(name.toLowerCase(), `src/${name}/x.ts`)).not.toThrow();
  });
});
