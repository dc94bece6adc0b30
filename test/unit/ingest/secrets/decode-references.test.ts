import { decodeHTMLStrict, encodeHTML } from "entities";
import { describe, expect, it } from "vitest";
import { countBelow, decodeReferences } from "../../../../src/ingest/secrets/decode-references.js";
import { ASCII_NAMED_REFERENCES } from "../../../../src/ingest/secrets/html-references.js";

const decoded = (text: string): string | undefined => decodeReferences(text)?.text;

describe("decodeReferences: HTML character references", () => {
  it("decodes decimal and hex references, with or without the semicolon, with any number of leading zeros", () => {
    expect(decoded("a&#95;b")).toBe("a_b");
    expect(decoded("a&#x5f;b &#X5F; &#x5F")).toBe("a_b _ _");
    expect(decoded("a&#95b")).toBe("a_b");
    expect(decoded(`&#${"0".repeat(5000)}95;`)).toBe("_");
  });

  it("turns NUL, surrogates and values past Unicode into U+FFFD, and leaves `&#` without digits alone", () => {
    expect(decoded("&#0;&#xD800;&#99999999999999999999;")).toBe("\uFFFD\uFFFD\uFFFD");
    expect(decoded("&#128512;")).toBe("😀");
    expect(decodeReferences("&#; &#x; & &;")).toBeUndefined();
  });

  it("decodes every named reference with an ASCII value, and the legacy ones without a semicolon", () => {
    expect(decoded("ghp&lowbar;x &UnderBar; &colon;&sol;&sol; &amp;&lt;&gt;&quot;")).toBe('ghp_x _ :// &<>"');
    expect(decoded("&ampx &lt3 &amp")).toBe("&x <3 &");
    expect(decoded("&fjlig;")).toBe("fj");
    expect(decodeReferences("&nbsp; &copy; &unknown; &lowbar")).toBeUndefined();
  });

  it("has the value HTML gives each name in its table", () => {
    for (const [name, value] of ASCII_NAMED_REFERENCES) expect(decodeHTMLStrict(`&${name};`), name).toBe(value);
  });

  it("knows the name HTML's encoder uses for each ASCII character that has one", () => {
    for (let code = 9; code < 127; code++) {
      const char = String.fromCharCode(code);
      const name = /^&([A-Za-z]+);$/.exec(encodeHTML(char))?.[1];
      if (name !== undefined) expect(ASCII_NAMED_REFERENCES.get(name), name).toBe(char);
    }
  });

  it("does not decode a decoded value again", () => {
    expect(decoded("&amp;#95;")).toBe("&#95;");
  });
});

describe("decodeReferences: JSON and JavaScript escapes", () => {
  it("decodes \\uXXXX, \\u{…}, \\xXX and \\/", () => {
    expect(decoded("ghp\\u005fx")).toBe("ghp_x");
    expect(decoded("ghp\\u{5F}x \\u{00000000005f}")).toBe("ghp_x _");
    expect(decoded("ghp\\x5fx")).toBe("ghp_x");
    expect(decoded("https:\\/\\/host")).toBe("https://host");
  });

  it("decodes a surrogate pair written as two escapes to its character", () => {
    expect(decoded("\\ud83d\\ude00")).toBe("😀");
  });

  it("passes over an escaped backslash, so what follows it is not an escape", () => {
    expect(decodeReferences("C:\\\\u005f")).toBeUndefined();
    expect(decoded("\\\\\\u005f")).toBe("\\\\_");
  });

  it("leaves other escapes and malformed ones as they are", () => {
    expect(decodeReferences('a\\n\\t\\"b \\u12 \\xZ1 \\u{} \\u{110000} \\')).toBeUndefined();
  });
});

describe("decodeReferences: lines", () => {
  it("is undefined when the text holds nothing to decode", () => {
    expect(decodeReferences("plain text\nwith lines")).toBeUndefined();
    expect(decodeReferences("")).toBeUndefined();
  });

  it("records where decoding added a line break, so a decoded line maps back to the original one", () => {
    const result = decodeReferences("one&#10;two\\u000athree\nfour&NewLine;five")!;
    expect(result.text).toBe("one\ntwo\nthree\nfour\nfive");
    expect([...result.addedBreaks]).toEqual([3, 7, 18]);
    const five = result.text.indexOf("five");
    const decodedLine = result.text.slice(0, five).split("\n").length;
    expect(decodedLine - countBelow(result.addedBreaks, five)).toBe(2);
  });

  it("keeps the text's length bound: the decoded text is never longer", () => {
    const text = "&#x1F600; \\u{1F600} &fjlig; \\/".repeat(100);
    expect(decoded(text)!.length).toBeLessThanOrEqual(text.length);
  });
});
