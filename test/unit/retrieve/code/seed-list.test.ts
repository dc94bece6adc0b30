import { describe, expect, it } from "vitest";
import { seedList } from "../../../../src/retrieve/code/resolve-seeds.js";

describe("seedList", () => {
  it("splits on commas and newlines, trims, drops empties and repeats", () => {
    expect(seedList(" Session.send, parse_config\n\nsym_abc , Session.send,")).toEqual(["Session.send", "parse_config", "sym_abc"]);
    expect(seedList(undefined)).toEqual([]);
    expect(seedList("")).toEqual([]);
  });
});
