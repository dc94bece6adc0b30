import { describe, expect, it } from "vitest";
import { randomBytes, seededRng } from "../../support/hostile-documents.js";
import { MAX_UNREADABLE_SHARE, UNREADABLE_ALLOWANCE, decodeCleanText, decodeText, isReadableText, textButForNul, withoutNul } from "../../../src/text/decode-text.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const utf16le = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "utf16le"));
const utf16be = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "utf16le").swap16());

describe("decodeText", () => {
  it("decodes UTF-8, dropping a leading BOM only", () => {
    expect(decodeText(bytes("\uFEFFhello \uFEFF"))).toBe("hello \uFEFF");
    expect(decodeText(bytes("grüße"))).toBe("grüße");
    expect(decodeText(new Uint8Array())).toBe("");
  });

  it("turns CRLF and lone CR into LF, one break each", () => {
    const text = decodeText(bytes("a\r\nb\rc\n\r\nd"));
    expect(text).toBe("a\nb\nc\n\nd");
    expect(text!.split("\n")).toHaveLength(5);
  });

  it("replaces malformed UTF-8 instead of refusing it", () => {
    expect(decodeText(new Uint8Array([0x68, 0xc3, 0xa9, 0xff, 0x21]))).toBe("h\u00e9\uFFFD!");
    expect(decodeText(new Uint8Array([0x61, 0xc3]))).toBe("a\uFFFD");
  });

  it("decodes UTF-16 with a byte-order mark, either byte order", () => {
    expect(decodeText(utf16le("\uFEFFhi\r\nthere"))).toBe("hi\nthere");
    expect(decodeText(utf16be("\uFEFFhi\r\nthere"))).toBe("hi\nthere");
  });

  it("calls bytes with a NUL anywhere binary", () => {
    expect(decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00]))).toBeUndefined();
    expect(decodeText(new Uint8Array([0x61, 0x00, 0x62]))).toBeUndefined();
    const late = new Uint8Array(100_001).fill(0x61);
    late[100_000] = 0;
    expect(decodeText(late)).toBeUndefined();
    expect(decodeText(utf16le("\uFEFFa\0b"))).toBeUndefined();
  });

  it("reads UTF-16 without a byte-order mark as UTF-8, so as binary", () => {
    expect(decodeText(utf16le("hi"))).toBeUndefined();
  });
});

describe("decodeCleanText", () => {
  it("decodes clean text as decodeText does", () => {
    expect(decodeCleanText(bytes("\uFEFFgrüße\r\n"))).toBe("grüße\n");
    expect(decodeCleanText(utf16le("\uFEFFok"))).toBe("ok");
  });

  it("refuses malformed bytes and binary", () => {
    expect(decodeCleanText(new Uint8Array([0x61, 0xc3]))).toBeUndefined();
    expect(decodeCleanText(new Uint8Array([0x61, 0x00, 0x62]))).toBeUndefined();
    expect(decodeCleanText(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0xff]))).toBeUndefined();
    expect(decodeCleanText(utf16le("\uFEFF\uD800x"))).toBeUndefined();
  });
});

describe("isReadableText", () => {
  const latin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "latin1"));

  it("keeps prose with stray bytes: a legacy encoding's accents, a short note, terminal colours", () => {
    const french = "Le chef a préparé un gâteau pour la fête du village, et chacun en a mangé. ".repeat(200);
    const czech = "Příliš žluťoučký kůň úpěl ďábelské ódy. ".repeat(200);
    expect(isReadableText(decodeText(latin1(french))!)).toBe(true);
    expect(isReadableText(decodeText(new Uint8Array(Buffer.from(czech, "latin1")))!)).toBe(true);
    expect(isReadableText(decodeText(latin1("Crème brûlée à la carte"))!)).toBe(true);
    expect(isReadableText("\u001b[32mINFO\u001b[0m started\n".repeat(100))).toBe(true);
    expect(isReadableText("tab\tform\fcr\r\n")).toBe(true);
  });

  it("refuses noise: random bytes, and text mostly of controls or replacement characters", () => {
    expect(isReadableText(decodeText(randomBytes(10_000, seededRng(1)))!)).toBe(false);
    expect(isReadableText("\u0001\u0002".repeat(UNREADABLE_ALLOWANCE))).toBe(false);
    const noise = (count: number): string => "\uFFFD".repeat(count) + "a".repeat(1000 - count);
    expect(isReadableText(noise(1000 * MAX_UNREADABLE_SHARE))).toBe(true);
    expect(isReadableText(noise(1000 * MAX_UNREADABLE_SHARE + 1))).toBe(false);
  });

  it("leaves decodeText as it was: noise still decodes, with replacement characters", () => {
    expect(decodeText(new Uint8Array([0x80, 0x81, 0x01]))).toBe("\uFFFD\uFFFD\u0001");
  });

  it("reads text but for NUL bytes with every NUL left out, and nothing else changed", () => {
    const sparse = new Uint8Array([0, 0x41, 0, 0, 0x42, 0xc3, 0xa9, 0, 0x43, 0]);
    expect([...withoutNul(sparse)]).toEqual([0x41, 0x42, 0xc3, 0xa9, 0x43]);
    expect([...withoutNul(new Uint8Array([0, 0, 0]))]).toEqual([]);
    expect([...withoutNul(new Uint8Array([1, 2, 3]))]).toEqual([1, 2, 3]);
    const spaced = Buffer.from("token = s3cr3t-value\n".repeat(20).split("").join("\0"));
    expect(textButForNul(spaced)).toBe("token = s3cr3t-value\n".repeat(20));
    expect(textButForNul(Buffer.from("plain text"))).toBeUndefined();
    expect(textButForNul(new Uint8Array([0, ...randomBytes(5_000, seededRng(2))]))).toBeUndefined();
  });
});
