import { describe, expect, it } from "vitest";
import { API_KEY_LENGTH, hashSecret, isWellFormedApiKey, mintApiKey, safeEqual, visiblePrefix } from "../../../src/access/api-key-format.js";

describe("API key format", () => {
  it("is pks_ + base62 body + checksum, hashed with SHA-256, with an 8-character visible prefix", () => {
    const k = mintApiKey();
    expect(k.plaintext).toMatch(/^pks_[0-9A-Za-z]{49}$/);
    expect(k.plaintext).toHaveLength(API_KEY_LENGTH);
    expect(k.prefix).toBe(k.plaintext.slice(0, 12));
    expect(visiblePrefix(k.plaintext)).toBe(k.prefix);
    expect(k.hash).toBe(hashSecret(k.plaintext));
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(isWellFormedApiKey(k.plaintext)).toBe(true);
  });

  it("refuses a changed character, a wrong length, a foreign prefix", () => {
    const { plaintext } = mintApiKey();
    for (let i = 4; i < plaintext.length; i += 7) {
      const c = plaintext[i] === "a" ? "b" : "a";
      expect(isWellFormedApiKey(plaintext.slice(0, i) + c + plaintext.slice(i + 1))).toBe(false);
    }
    expect(isWellFormedApiKey(plaintext.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`abc_${plaintext.slice(4)}`)).toBe(false);
    expect(isWellFormedApiKey(`${plaintext.slice(0, 20)}-${plaintext.slice(21)}`)).toBe(false);
  });

  it("100,000 keys: no collisions", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(mintApiKey().plaintext);
    expect(seen.size).toBe(100_000);
  });

  it("compares in constant time without throwing on different lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
