import { describe, expect, it } from "vitest";
import { cleanName, isGenericName, isPlausibleName } from "../../../src/entities/clean-name.js";

describe("cleanName", () => {
  it.each([
    ['"The Hono\'s",', "Hono"],
    ["(Valgrind)", "Valgrind"],
    ["the rate limits.", "rate limits"],
    ["C++,", "C++"],
    ["C#.", "C#"],
    ["  Node.js.  ", "Node.js"],
    ["--root-command,", "--root-command"],
    ["Jesus'", "Jesus"],
    ["OMFs", "OMF"],
    ["an   Overview", "Overview"],
  ])("%j → %j", (raw, expected) => {
    expect(cleanName(raw)).toBe(expected);
  });
});

describe("isPlausibleName", () => {
  it.each(["Hono", "C++", "rate limit", "GPLv3", "O'Reilly & Associates Inc", "dh_testroot"])("%s can name an entity", (name) => {
    expect(isPlausibleName(name)).toBe(true);
  });

  it.each(["x", "42", "1.19.0", "https://hono.dev", "bob@example.com", "the", "Usage", "Quick Start", "MUST", "APIs", "of Valgrind", "Hono and", "a b c d e f g"])(
    "%s names nothing",
    (name) => {
      expect(isPlausibleName(name)).toBe(false);
    },
  );
});

describe("isGenericName", () => {
  it("knows document parts and general abbreviations in any case", () => {
    expect(isGenericName("Introduction")).toBe(true);
    expect(isGenericName("getting started")).toBe(true);
    expect(isGenericName("SDK")).toBe(true);
    expect(isGenericName("MiB")).toBe(true);
    expect(isGenericName("Valgrind")).toBe(false);
    expect(isGenericName("SQL")).toBe(false);
  });
});
