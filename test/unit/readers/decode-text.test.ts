import { describe, expect, it } from "vitest";
import { decodeText, normaliseLineEndings, tryDecodeText } from "../../../src/readers/shared/decode-text.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("decodeText", () => {
  it("strips a leading BOM only", () => {
    expect(decodeText(bytes("\uFEFFhello \uFEFF"))).toBe("hello \uFEFF");
  });

  it("turns CRLF and lone CR into LF, one break each", () => {
    const text = decodeText(bytes("a\r\nb\rc\n\r\nd"));
    expect(text).toBe("a\nb\nc\n\nd");
    expect(text.split("\n")).toHaveLength(5);
  });

  it("replaces malformed UTF-8 instead of failing", () => {
    expect(decodeText(new Uint8Array([0x61, 0xff, 0x62]))).toBe("a\uFFFDb");
  });

  it("decodes an empty file to an empty string", () => {
    expect(decodeText(new Uint8Array())).toBe("");
  });
});

describe("tryDecodeText", () => {
  it("decodes clean UTF-8", () => {
    expect(tryDecodeText(bytes("\uFEFFgrüße\r\n"))).toBe("grüße\n");
  });

  it("refuses malformed UTF-8 and NUL bytes", () => {
    expect(tryDecodeText(new Uint8Array([0x61, 0xc3]))).toBeUndefined();
    expect(tryDecodeText(new Uint8Array([0x61, 0x00, 0x62]))).toBeUndefined();
    expect(tryDecodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeUndefined();
  });
});

describe("normaliseLineEndings", () => {
  it("leaves LF-only text untouched", () => {
    const text = "a\nb\n";
    expect(normaliseLineEndings(text)).toBe(text);
  });
});
