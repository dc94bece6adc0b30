/**
 * The linear checks readers make before parsing: nesting scans that count
 * what parsers would open and nothing else (brackets in strings, comments,
 * code blocks and block scalars do not count), the stream decoders that
 * measure PDF streams, and ZIP entries inflated under a running budget.
 */
import { deflateRawSync, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { codeNestsWithin } from "../../../src/readers/code/code-nesting.js";
import { checkJsonNesting, checkTomlNesting } from "../../../src/readers/config/config-nesting.js";
import { checkYamlNesting } from "../../../src/readers/config/yaml-nesting.js";
import { checkMarkdownNesting } from "../../../src/readers/markdown/markdown-nesting.js";
import { decodeFilter } from "../../../src/readers/pdf/pdf-filters.js";
import { inflateEntry, storedZip, zipEntries } from "../../../src/readers/common/zip-archive.js";
import { buildZip } from "../../support/zip-fixture.js";

const tooDeep = /^document nests deeper than \d+ levels$/;
const lines = (...parts: string[]): string => parts.join("\n");

describe("checkMarkdownNesting", () => {
  it("counts quote markers and list markers on a line, and list items opened by indentation", () => {
    expect(() => checkMarkdownNesting("> - > 1. x", 4)).not.toThrow();
    expect(() => checkMarkdownNesting("> - > 1. > x", 4)).toThrow(tooDeep);
    const nested = lines("- a", "  - b", "    - c", "      - d");
    expect(() => checkMarkdownNesting(nested, 4)).not.toThrow();
    expect(() => checkMarkdownNesting(`${nested}\n        - e`, 4)).toThrow(tooDeep);
  });

  it("closes list items at a marker further left, so long flat documents stay shallow", () => {
    const doc = Array.from({ length: 500 }, (_, i) => lines(`- item ${i}`, "  - sub", "    - subsub", "", "Text.")).join("\n");
    expect(() => checkMarkdownNesting(doc, 3)).not.toThrow();
  });

  it("does not count fenced code, thematic breaks or bullets that are no markers", () => {
    const code = Array.from({ length: 80 }, (_, i) => `${"  ".repeat(i)}- yaml item`).join("\n");
    expect(() => checkMarkdownNesting(lines("```yaml", code, "```", "- after"), 4)).not.toThrow();
    expect(() => checkMarkdownNesting(lines("~~~~", "> > > > > >", "~~~~"), 2)).not.toThrow();
    expect(() => checkMarkdownNesting("- - - - - - - - - -", 2)).not.toThrow();
    expect(() => checkMarkdownNesting("-1 -2 *emphasis* 3.14", 0)).not.toThrow();
  });
});

describe("checkJsonNesting", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(() => checkJsonNesting('{"a": [[1]], "b": "[[[[[[", "c": "\\"[[["}', 3)).not.toThrow();
    expect(() => checkJsonNesting('{"a": [[[1]]]}', 3)).toThrow(tooDeep);
    expect(() => checkJsonNesting("]]]]}}}}[[", 2)).not.toThrow();
  });
});

describe("checkTomlNesting", () => {
  it("counts header and key dots, then arrays and inline tables of the value", () => {
    expect(() => checkTomlNesting(lines("[a.b]", "c = [1, 2]"), 4)).not.toThrow();
    expect(() => checkTomlNesting(lines("[a.b]", "c.d = [[1]]"), 4)).toThrow(tooDeep);
    expect(() => checkTomlNesting('[a."b.c.d.e"]', 2)).not.toThrow();
    expect(() => checkTomlNesting("[a.b.c]", 2)).toThrow(tooDeep);
  });

  it("skips strings, multi-line strings and comments, and follows arrays over lines", () => {
    const text = lines('a = "[[[[["', "b = '''", "[[[[[[[[", "'''", "c = 1 # [[[[[[", "d = [", "  [", "    [1],", "  ],", "]");
    expect(() => checkTomlNesting(text, 4)).not.toThrow();
    expect(() => checkTomlNesting(text, 3)).toThrow(tooDeep);
  });
});

describe("checkYamlNesting", () => {
  it("counts block levels by indentation and compact indicators", () => {
    expect(() => checkYamlNesting(lines("a:", "  b:", "    c: 1"), 3)).not.toThrow();
    expect(() => checkYamlNesting(lines("a:", "  b:", "    c:", "      d: 1"), 3)).toThrow(tooDeep);
    expect(() => checkYamlNesting("- - - x", 4)).not.toThrow();
    expect(() => checkYamlNesting("- - - - x", 4)).toThrow(tooDeep);
  });

  it("counts flow collections only where a value starts", () => {
    expect(() => checkYamlNesting("a: [[1], {b: [2]}]", 4)).not.toThrow();
    expect(() => checkYamlNesting("a: [[[[1]]]]", 4)).toThrow(tooDeep);
    expect(() => checkYamlNesting("a: see [docs [here [and [there", 1)).not.toThrow();
    expect(() => checkYamlNesting("a: &anchor !tag [[[1]]]", 3)).toThrow(tooDeep);
  });

  it("skips quoted scalars, block scalars and comments", () => {
    const text = lines('a: "[[[[ \\" [[["', "b: '[[[['' [[[['", "c: | # [[[[", "  [[[[[[", "      - - - - - -", "d: 1 # [[[[[");
    expect(() => checkYamlNesting(text, 2)).not.toThrow();
    expect(() => checkYamlNesting(lines("a: 'multi", "  line [[[[[['", "b: 1"), 1)).not.toThrow();
  });
});

describe("codeNestsWithin", () => {
  it("counts brackets outside strings and comments, in each language's syntax", () => {
    expect(codeNestsWithin('f(g([1]), "((((", `${"{"}((`, /* (((( */ 2) // ((((', "typescript", 3)).toBe(true);
    expect(codeNestsWithin("f(g(h(i(1))))", "typescript", 3)).toBe(false);
    expect(codeNestsWithin("x = (a // 2) # ((((\ny = '''\n((((\n'''", "python", 1)).toBe(true);
    expect(codeNestsWithin("fn f<'a>(x: &'a str) -> &'a str { x }", "rust", 2)).toBe(true);
    expect(codeNestsWithin("let c = '(';", "rust", 0)).toBe(true);
  });
});

describe("decodeFilter", () => {
  const text = (decoded: { data: Uint8Array } | undefined): string => Buffer.from(decoded?.data ?? []).toString("latin1");

  it("decodes the PDF reference's LZW example, run lengths, hex and base-85", async () => {
    const lzw = Uint8Array.of(0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01);
    expect(text(await decodeFilter("LZWDecode", lzw, 100))).toBe("-----A---B");
    expect(text(await decodeFilter("RunLengthDecode", Uint8Array.of(2, 97, 98, 99, 254, 120, 128), 100))).toBe("abcxxx");
    expect(text(await decodeFilter("AHx", Buffer.from("61 62 6\n3>"), 100))).toBe("abc");
    expect(text(await decodeFilter("A85", Buffer.from("9jqo^z@:B~>"), 100))).toBe("Man \0\0\0\0ab");
    expect(await decodeFilter("DCTDecode", Uint8Array.of(1, 2), 100)).toBeUndefined();
  });

  it("inflates a zlib stream, stops at the cap, and keeps what precedes damage", async () => {
    const big = deflateSync(Buffer.alloc(1_000_000, 32));
    expect((await decodeFilter("FlateDecode", big, 2_000_000))?.data.length).toBe(1_000_000);
    expect(await decodeFilter("FlateDecode", big, 1000)).toMatchObject({ data: new Uint8Array(0), overflow: true });
    const damaged = Buffer.concat([deflateSync(Buffer.from("kept text")).subarray(0, -4), Buffer.from([0xff, 0xff, 0xff])]);
    const decoded = await decodeFilter("Fl", damaged, 100);
    expect([text(decoded), decoded?.damaged]).toEqual(["kept text", true]);
    expect((await decodeFilter("FlateDecode", deflateRawSync(Buffer.from("x")), 100))?.data.length).toBe(0);
  });
});

describe("ZIP entries under a running budget", () => {
  const zip = buildZip([
    { name: "a.xml", data: "a".repeat(600) },
    { name: "b.xml", data: "b".repeat(600) },
  ]);

  it("inflates entries while the budget lasts, whatever they declare", () => {
    const budget = { left: 1000, limit: 1000 };
    const [a, b] = zipEntries(zip, budget) ?? [];
    expect(Buffer.from(inflateEntry(zip, a!, budget)).toString()).toBe("a".repeat(600));
    expect(budget.left).toBe(400);
    expect(() => inflateEntry(zip, b!, budget)).toThrow(/^document inflates past 0 MiB$/);
    const lying = buildZip([{ name: "a.xml", data: "a".repeat(5000) }], { sizeOf: () => 1 });
    const entries = zipEntries(lying, { left: 1000, limit: 1000 }) ?? [];
    expect(() => inflateEntry(lying, entries[0]!, { left: 1000, limit: 1000 })).toThrow(/inflates past/);
  });

  it("writes back an uncompressed archive that reads the same", () => {
    const budget = { left: 10_000, limit: 10_000 };
    const stored = storedZip(new Map([["x/ä.xml", Buffer.from("<x/>")], ["empty.bin", new Uint8Array(0)]]));
    const entries = zipEntries(stored, budget) ?? [];
    expect(entries.map((e) => [e.name, e.method])).toEqual([["x/ä.xml", 0], ["empty.bin", 0]]);
    expect(Buffer.from(inflateEntry(stored, entries[0]!, budget)).toString()).toBe("<x/>");
    expect(zipEntries(Buffer.from("not a zip"), budget)).toBeUndefined();
  });
});
