import { describe, expect, it } from "vitest";
import { inferFieldType, isDate, isDateTime, isProperName } from "../../../../src/categories/propose/infer-field-type.js";
import { FIELD_TYPES } from "../../../../src/vocabulary.js";
import type { FieldType } from "../../../../src/vocabulary.js";

describe("inferFieldType", () => {
  const examples: Record<FieldType, string[]> = {
    text: ["Payments failed for an hour", "the cache was cold", "unknown"],
    number: ["3.5", "1,200.75", "12"],
    integer: ["3", "1,200", "-7"],
    boolean: ["yes", "No", "TRUE", "false"],
    date: ["2026-03-02", "March 2, 2026", "2 Mar 2026", "Sept. 30th, 2025"],
    datetime: ["2026-03-02T14:05:00Z", "2026-03-02 09:30", "2026-03-02T14:05+01:00"],
    url: ["https://example.com/a", "http://localhost:8080/x", "www.example.org"],
    email: ["alice@example.com", "mailto:bob@example.org", "c.d@sub.example.io"],
    entity: ["Alice", "Alice Smith", "Billing Team", "Bank of England", "O'Brien"],
    "text[]": ["api, web, worker", "ops; billing", "search, auth"],
  };

  it.each(FIELD_TYPES.map((type) => [type, examples[type]] as const))("reads %s", (type, values) => {
    expect(inferFieldType(values)).toBe(type);
  });

  it("leaves empty values out, and reads no values as text", () => {
    expect(inferFieldType([])).toBe("text");
    expect(inferFieldType(["", "  "])).toBe("text");
    expect(inferFieldType(["", "2026-03-02", " ", "2026-03-03"])).toBe("date");
  });

  it("holds a type when 80 % of the values fit it", () => {
    expect(inferFieldType(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "TBD"])).toBe("date");
    expect(inferFieldType(["2026-03-02", "2026-03-03", "2026-03-04", "TBD", "later"])).toBe("text");
    expect(inferFieldType(["1", "2", "3", "4", "n/a"])).toBe("integer");
    expect(inferFieldType(["1", "2", "3", "n/a", "none"])).toBe("text");
  });

  it("does not read dates, versions or phone numbers as numbers", () => {
    expect(inferFieldType(["2026-03-02", "2026-04-01"])).toBe("date");
    expect(inferFieldType(["1.2.3", "2.0.1"])).toBe("text");
    expect(inferFieldType(["555-1234", "555-9876"])).toBe("text");
  });

  it("reads a year as an integer and decimals as a number", () => {
    expect(inferFieldType(["2024", "2025", "2026"])).toBe("integer");
    expect(inferFieldType(["1", "2.5", "3"])).toBe("number");
    expect(inferFieldType(["$12", "€3,400", "99%"])).toBe("integer");
  });

  it("reads numbers with one unit, but not with mixed units", () => {
    expect(inferFieldType(["40 minutes", "12 minutes", "1 minute"])).toBe("integer");
    expect(inferFieldType(["1.5 GB", "512 GB", "2 GB"])).toBe("number");
    expect(inferFieldType(["40 minutes", "3 days", "2 hours"])).toBe("text");
    expect(inferFieldType(["40 minutes", "12 minutes", "30 minutes", "5 minutes", "3 days"])).toBe("integer");
  });

  it("reads mixed dates and datetimes as datetime", () => {
    expect(inferFieldType(["2026-03-02", "2026-03-02T10:00Z", "2026-03-03", "2026-03-04T11:00"])).toBe("datetime");
  });

  it("reads states and levels as text, not as names", () => {
    expect(inferFieldType(["Accepted", "Proposed", "Superseded"])).toBe("text");
    expect(inferFieldType(["High", "Low", "Medium"])).toBe("text");
    expect(inferFieldType(["high", "low"])).toBe("text");
    expect(inferFieldType(["payments", "auth", "search"])).toBe("text");
  });

  it("reads a list field only when most values are lists", () => {
    expect(inferFieldType(["ops, payments", "ops", "ops, auth"])).toBe("text[]");
    expect(inferFieldType(["ops", "payments", "ops, auth"])).toBe("text");
    expect(inferFieldType(["Alice, Bob", "Carol"])).toBe("text");
    expect(inferFieldType(["We chose it, then we regretted it.", "It failed, and we rolled back."])).toBe("text");
  });

  it("reads names of up to three words, a stray value allowed", () => {
    expect(inferFieldType(["Alice", "Bob Smith", "Carol Jones", "Dan", "someone"])).toBe("entity");
    expect(inferFieldType(["Alice", "Bob Smith", "the on-call engineer", "someone"])).toBe("text");
    expect(inferFieldType(["Alice Mary Ann Smith", "Bob Ray Lee Jones"])).toBe("text");
  });
});

describe("value readings", () => {
  it("checks dates against the calendar", () => {
    expect(isDate("2026-02-29")).toBe(false);
    expect(isDate("2024-02-29")).toBe(true);
    expect(isDate("2026-13-01")).toBe(false);
    expect(isDate("Smarch 2, 2026")).toBe(false);
    expect(isDate("31 Apr 2026")).toBe(false);
    expect(isDateTime("2026-03-02T25:00")).toBe(false);
    expect(isDateTime("2026-03-02")).toBe(false);
  });

  it("tells names from other capitalised words", () => {
    expect(isProperName("Jean-Luc Picard")).toBe(true);
    expect(isProperName("McDonald")).toBe(true);
    expect(isProperName("SRE Team")).toBe(true);
    expect(isProperName("of England")).toBe(false);
    expect(isProperName("Critical")).toBe(false);
    expect(isProperName("alice")).toBe(false);
    expect(isProperName("P1")).toBe(false);
  });
});
