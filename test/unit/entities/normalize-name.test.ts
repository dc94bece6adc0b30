import { describe, expect, it } from "vitest";
import { normalizeName, singularWord } from "../../../src/entities/normalize-name.js";

describe("normalizeName", () => {
  it.each([
    ["GreeterOptions", "greeter option"],
    ["greeter_options", "greeter option"],
    ["Greeter options.", "greeter option"],
    ["parseHTTPHeaders", "parse http header"],
    ["Greeter.greet", "greeter greet"],
    ["src/code/languages.ts", "src code language ts"],
    ["  Policies & Classes!  ", "policy class"],
    ["ＡＢＣ", "abc"],
    ["Größe", "größe"],
    ["", ""],
  ])("%j → %j", (name, expected) => {
    expect(normalizeName(name)).toBe(expected);
  });

  it("maps a word and its plural alike", () => {
    for (const [one, many] of [["user", "users"], ["city", "cities"], ["class", "classes"], ["box", "boxes"], ["match", "matches"], ["movie", "movies"]] as const) {
      expect(singularWord(many)).toBe(singularWord(one));
    }
  });

  it("leaves short words and words that only look plural", () => {
    for (const word of ["bus", "gas", "its", "status", "analysis", "process", "series"]) expect(singularWord(word)).toBe(word);
  });
});
