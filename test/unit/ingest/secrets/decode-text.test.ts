import { describe, expect, it } from "vitest";
import { decodeScannableText } from "../../../../src/ingest/secrets/decode-text.js";

describe("decodeScannableText", () => {
  it("decodes UTF-8, replacing invalid sequences", () => {
    expect(decodeScannableText(new Uint8Array([0x68, 0xc3, 0xa9, 0xff, 0x21]))).toBe("h\u00e9\ufffd!");
  });

  it("treats a NUL in the first 8 KiB as binary", () => {
    expect(decodeScannableText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00]))).toBeNull();
    expect(decodeScannableText("a\0b")).toBeNull();
    const late = new Uint8Array(8193).fill(0x61);
    late[8192] = 0;
    expect(decodeScannableText(late)).not.toBeNull();
  });

  it("decodes UTF-16 with a byte-order mark", () => {
    expect(decodeScannableText(Buffer.from("\uFEFFhi", "utf16le"))).toBe("hi");
    expect(decodeScannableText(Buffer.from("\uFEFFhi", "utf16le").swap16())).toBe("hi");
  });
});
