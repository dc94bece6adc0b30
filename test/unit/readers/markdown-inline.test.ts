import { describe, expect, it } from "vitest";
import { htmlText } from "../../../src/readers/markdown/markdown-inline.js";
import { countIndexOfScan } from "../../support/work-count.js";

describe("htmlText", () => {
  it("drops tags and comments and decodes entities", () => {
    expect(htmlText('<p class="x">A &amp; B<!-- note --> &#x41;&#66;&nbsp;</p>')).toBe(" A & B AB  ");
  });

  it("keeps a bare less-than sign and unknown entities", () => {
    expect(htmlText("a < b &bogus; c")).toBe("a < b &bogus; c");
  });

  it("keeps the text after an unclosed tag once, and drops an unclosed comment", () => {
    expect(htmlText("before <b unclosed")).toBe("before <b unclosed");
    expect(htmlText("kept <!-- never closed")).toBe("kept ");
  });

  // A linearity guard that counts work instead of timing it: a run of openers that never close must
  // not send a search to the end of the text from every opener.
  it.each(["<a", "<!--"])("stays linear on long runs of %j: each character scanned about once", (opener) => {
    const text = opener.repeat(200_000);
    const { scanned } = countIndexOfScan(() => htmlText(text));
    expect(scanned).toBeLessThanOrEqual(2 * text.length);
  });
});
