import { describe, expect, it } from "vitest";
import { extractValue, stripMarkup, TEXT_VALUE_MAX } from "../../../../src/categories/fill/extract-value.js";

describe("extractValue: number", () => {
  it.each([
    ["42", 42],
    ["1,200", 1200],
    ["1,200,000 users", 1200000],
    ["3.5 h", 3.5],
    ["3.5h", 3.5],
    ["-7 degrees", -7],
    ["about 40% of requests", 40],
    ["$1,200", 1200],
    ["1e3", 1000],
    ["0.25", 0.25],
    ["10 ms", 10],
    ["10ms", 10],
    ["2 retries, then 5", 2],
    ["**12**", 12],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("number", raw)).toBe(expected);
  });

  it.each(["high", "", "v2", "2026-03-02", "10:15", "10-20", "1.2.3", "1,20", "5k", "10m", "abc123", "n/a"])(
    "finds no number in %j",
    (raw) => {
      expect(extractValue("number", raw)).toBeUndefined();
    },
  );
});

describe("extractValue: integer", () => {
  it("reads whole numbers only", () => {
    expect(extractValue("integer", "3 services")).toBe(3);
    expect(extractValue("integer", "1,200")).toBe(1200);
    expect(extractValue("integer", "-4")).toBe(-4);
    expect(extractValue("integer", "3.5")).toBeUndefined();
    expect(extractValue("integer", "many")).toBeUndefined();
    expect(extractValue("integer", "1e30")).toBeUndefined();
  });
});

describe("extractValue: boolean", () => {
  it.each([
    ["yes", true],
    ["Yes", true],
    ["TRUE", true],
    ["on", true],
    ["no", false],
    ["False", false],
    ["OFF", false],
    ["No (deprecated)", false],
    ["Yes, since March", true],
    ["yes.", true],
    ["  yes  ", true],
    ["`true`", true],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("boolean", raw)).toBe(expected);
  });

  it.each(["maybe", "on call", "not sure", "", "1", "yesterday", "y"])("finds no boolean in %j", (raw) => {
    expect(extractValue("boolean", raw)).toBeUndefined();
  });
});

describe("extractValue: date", () => {
  it.each([
    ["2026-03-02", "2026-03-02"],
    ["2026-3-2", "2026-03-02"],
    ["2026-03-02T10:15:00Z", "2026-03-02"],
    ["March 2, 2026", "2026-03-02"],
    ["Mar 2 2026", "2026-03-02"],
    ["march 2nd, 2026", "2026-03-02"],
    ["Sept. 30, 2025", "2025-09-30"],
    ["2 Mar 2026", "2026-03-02"],
    ["2nd of March 2026", "2026-03-02"],
    ["2026/03/02", "2026-03-02"],
    ["2026.03.02", "2026-03-02"],
    ["on 2026-03-02 (Monday)", "2026-03-02"],
    ["2024-02-29", "2024-02-29"],
    ["Feb 29, 2000", "2000-02-29"],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("date", raw)).toBe(expected);
  });

  it.each([
    "2026-02-30",
    "2025-02-29",
    "1900-02-29",
    "2026-13-01",
    "2026-04-31",
    "February 30, 2026",
    "32 Jan 2026",
    "03/02/2026",
    "March 2026",
    "yesterday",
    "2026",
    "20260302",
    "",
  ])("finds no date in %j", (raw) => {
    expect(extractValue("date", raw)).toBeUndefined();
  });
});

describe("extractValue: datetime", () => {
  it.each([
    ["2026-03-02T10:15:00Z", "2026-03-02T10:15:00Z"],
    ["2026-03-02T10:15Z", "2026-03-02T10:15:00Z"],
    ["2026-03-02 10:15", "2026-03-02T10:15:00"],
    ["2026-03-02 9:05", "2026-03-02T09:05:00"],
    ["2026-03-02T10:15:30.250+01:00", "2026-03-02T10:15:30.250+01:00"],
    ["2026-03-02T10:15:30-0500", "2026-03-02T10:15:30-05:00"],
    ["2026-03-02 10:15 +02", "2026-03-02T10:15:00+02:00"],
    ["2026-03-02 10:15 UTC", "2026-03-02T10:15:00Z"],
    ["2026-03-02t10:15:00z", "2026-03-02T10:15:00Z"],
    ["started 2026-03-02 10:15 and ended later", "2026-03-02T10:15:00"],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("datetime", raw)).toBe(expected);
  });

  it.each([
    "2026-03-02",
    "2026-02-30T10:15:00Z",
    "2026-03-02T24:00:00Z",
    "2026-03-02T10:60:00Z",
    "2026-03-02T10:15:61Z",
    "2026-03-02T10:15:00+25:00",
    "March 2, 2026 at 10am",
    "10:15",
    "",
  ])("finds no datetime in %j", (raw) => {
    expect(extractValue("datetime", raw)).toBeUndefined();
  });
});

describe("extractValue: url", () => {
  it.each([
    ["https://status.example.com/incidents/42", "https://status.example.com/incidents/42"],
    ["see http://example.com/a?b=1#c.", "http://example.com/a?b=1#c"],
    ["(https://example.com/x)", "https://example.com/x"],
    ["https://en.wikipedia.org/wiki/Foo_(bar)", "https://en.wikipedia.org/wiki/Foo_(bar)"],
    ["[runbook](https://example.com/runbook), then https://other.example", "https://example.com/runbook"],
    ["<https://example.com>", "https://example.com"],
    ["HTTPS://Example.com/Path", "HTTPS://Example.com/Path"],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("url", raw)).toBe(expected);
  });

  it.each(["example.com", "ftp://example.com/file", "mailto:alice@example.com", "https://", "none", ""])("finds no url in %j", (raw) => {
    expect(extractValue("url", raw)).toBeUndefined();
  });
});

describe("extractValue: email", () => {
  it.each([
    ["alice@example.com", "alice@example.com"],
    ["Alice <alice.smith+ops@mail.example.co.uk>", "alice.smith+ops@mail.example.co.uk"],
    ["mailto:bob@example.org.", "bob@example.org"],
    ["write to ops@example.com or dev@example.com", "ops@example.com"],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("email", raw)).toBe(expected);
  });

  it.each(["alice", "alice@localhost", "@example.com", "alice@", "a@b.c", ""])("finds no email in %j", (raw) => {
    expect(extractValue("email", raw)).toBeUndefined();
  });
});

describe("extractValue: entity", () => {
  it.each([
    ["Alice", "Alice"],
    ["  Alice Smith  ", "Alice Smith"],
    ["**Alice**", "Alice"],
    ["[Alice](people/alice.md)", "Alice"],
    ["[[Payments team|payments]]", "Payments team"],
    ["`billing-api`", "billing-api"],
    ["Alice (SRE)", "Alice"],
    ["Acme, Inc.", "Acme, Inc."],
    ["Alice.", "Alice"],
    ["Alice;", "Alice"],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("entity", raw)).toBe(expected);
  });

  it("finds no name in blank text, a remark alone or a paragraph", () => {
    expect(extractValue("entity", "   ")).toBeUndefined();
    expect(extractValue("entity", "(none)")).toBeUndefined();
    expect(extractValue("entity", "word ".repeat(40))).toBeUndefined();
  });
});

describe("extractValue: text[]", () => {
  it.each([
    ["billing, payments; auth", ["billing", "payments", "auth"]],
    ["Alice and Bob", ["Alice", "Bob"]],
    ["red, green, and blue", ["red", "green", "blue"]],
    ["one\ntwo", ["one", "two"]],
    [" a ,, b ;", ["a", "b"]],
    ["single", ["single"]],
    ["`api`, **db**", ["api", "db"]],
    ["Sandy AND Andy", ["Sandy", "Andy"]],
  ])("reads %j as %j", (raw, expected) => {
    expect(extractValue("text[]", raw)).toEqual(expected);
  });

  it("finds no list in blank text or separators alone", () => {
    expect(extractValue("text[]", "")).toBeUndefined();
    expect(extractValue("text[]", " , ; ")).toBeUndefined();
  });
});

describe("extractValue: text", () => {
  it("keeps the text, trimmed, markup removed, whitespace collapsed", () => {
    expect(extractValue("text", "  high  ")).toBe("high");
    expect(extractValue("text", "**Payment** outage in `billing`,\n see [runbook](https://x.example)")).toBe(
      "Payment outage in billing, see runbook",
    );
    expect(extractValue("text", "root_cause stays snake_case")).toBe("root_cause stays snake_case");
    expect(extractValue("text", "2 * 3 * 4")).toBe("2 * 3 * 4");
  });

  it("finds no text in blank input", () => {
    expect(extractValue("text", "")).toBeUndefined();
    expect(extractValue("text", " \n\t ")).toBeUndefined();
  });

  it(`cuts text longer than ${TEXT_VALUE_MAX} characters at a word, ending in "…"`, () => {
    const long = "lorem ipsum ".repeat(60).trim();
    const cut = extractValue("text", long) as string;
    expect(Array.from(cut).length).toBeLessThanOrEqual(TEXT_VALUE_MAX);
    expect(cut.endsWith("…")).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(cut.slice(0, -1)).toMatch(/(lorem|ipsum)$/);
    const exact = "x".repeat(TEXT_VALUE_MAX);
    expect(extractValue("text", exact)).toBe(exact);
    const oneWord = "y".repeat(TEXT_VALUE_MAX + 10);
    expect(extractValue("text", oneWord)).toBe(`${"y".repeat(TEXT_VALUE_MAX - 1)}…`);
  });

  it("counts characters, not UTF-16 units", () => {
    const emoji = "😀 ".repeat(300).trim();
    const cut = extractValue("text", emoji) as string;
    expect(Array.from(cut).length).toBeLessThanOrEqual(TEXT_VALUE_MAX);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe("stripMarkup", () => {
  it("removes inline markup and keeps its words; plain text is unchanged", () => {
    expect(stripMarkup("## Heading")).toBe("Heading");
    expect(stripMarkup("- item")).toBe("item");
    expect(stripMarkup("<b>bold</b> and <em>em</em>")).toBe("bold and em");
    expect(stripMarkup("~~old~~ _new_ *also*")).toBe("old new also");
    expect(stripMarkup("![diagram](d.png)")).toBe("diagram");
    expect(stripMarkup("5) retries")).toBe("5) retries");
    const plain = "a < b, c > d, snake_case, x*y";
    expect(stripMarkup(plain)).toBe(plain);
  });
});
