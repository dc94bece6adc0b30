import { describe, expect, it } from "vitest";
import { htmlText } from "../../../src/readers/markdown/markdown-inline.js";

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

  it("stays linear on long runs of openers", () => {
    const started = performance.now();
    htmlText("<a".repeat(200_000));
    htmlText("<!--".repeat(200_000));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
