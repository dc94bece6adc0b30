import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import { DOCUMENT_BODY_CHARS } from "../../../src/store/search/search-index.js";
import { codePointsEnd, fileDocument } from "../../../src/store/search/reindex-changes.js";

/** The cut as a list of code points: slow, and plainly right. */
const byArray = (text: string, count: number) => Array.from(text).slice(0, count).join("");

function randomText(seed: number, length: number): string {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const pieces = ["a", "é", " ", "😀", "𝔸", "\ud800", "\udc00", "中", "\n"];
  let out = "";
  while (out.length < length) out += pieces[Math.floor(next() * pieces.length)];
  return out;
}

describe("a file's document row", () => {
  it("cuts at the same place as a list of code points, surrogate pairs whole and lone surrogates one each", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const text = randomText(seed, 1 + (seed % 60));
      for (const count of [0, 1, 2, 3, 7, 20, 100]) expect(text.slice(0, codePointsEnd(text, count))).toBe(byArray(text, count));
    }
  });

  it("agrees with SQLite's substr, which the full reindex uses", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const text = "ab😀cd𝔸é中".repeat(50);
    for (const count of [1, 2, 3, 4, 5, 99, 100, 101, 350]) {
      const row = await db.get<{ s: string }>("SELECT substr(?, 1, ?) AS s", [text, count]);
      expect(text.slice(0, codePointsEnd(text, count))).toBe(row?.s);
    }
    db.close();
  });

  it("keeps the body whole up to the bound and cuts a longer one at exactly the bound in code points", () => {
    const short = fileDocument([{ text: "# Title", heading: true }, { text: "body 😀", heading: false }]);
    expect(short).toEqual({ title: "# Title", body: "# Title body 😀" });
    const cell = "😀".repeat(1000);
    const long = fileDocument(Array.from({ length: 300 }, () => ({ text: cell, heading: false })));
    expect(Array.from(long.body)).toHaveLength(DOCUMENT_BODY_CHARS);
    expect(long.body).toBe(byArray(Array.from({ length: 300 }, () => cell).join(" "), DOCUMENT_BODY_CHARS));
  });
});
