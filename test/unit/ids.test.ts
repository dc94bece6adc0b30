import { describe, expect, it } from "vitest";
import { randomBase62 } from "../../src/base62.js";
import { newId, newOrderedId } from "../../src/ids.js";

describe("newId", () => {
  it("is the prefix and 22 base62 characters, never the same twice", () => {
    const ids = Array.from({ length: 50_000 }, () => newId("cel"));
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^cel_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws every base62 character about equally often (no modulo bias)", () => {
    const text = randomBase62(620_000);
    expect(text).toHaveLength(620_000);
    const counts = new Map<string, number>();
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 10,000 expected each; taking bytes 248-255 as `% 62` too would make 0-7 1.25x as likely (about 12,100 against 9,700).
    for (const n of counts.values()) expect(Math.abs(n - 10_000)).toBeLessThan(600);
  });
});

describe("newOrderedId", () => {
  it("has newId's form, is never the same twice, and sorts as the clock it was drawn at", () => {
    const start = Date.parse("2026-11-29T03:00:00Z");
    const ids = Array.from({ length: 30_000 }, (_, i) => newOrderedId("fac", start + Math.floor(i / 1000) * 61_001));
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(/^fac_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Ids of a later millisecond sort after every id of an earlier one (byte order, as SQLite compares text).
    for (let i = 1000; i < ids.length; i += 1000) expect(ids[i - 1]! < ids[i]!).toBe(true);
    expect(newOrderedId("cel", 0)).toMatch(/^cel_00000000[0-9A-Za-z]{14}$/);
    expect(newOrderedId("ent", start + 1) > newOrderedId("ent", start)).toBe(true);
  });
});
