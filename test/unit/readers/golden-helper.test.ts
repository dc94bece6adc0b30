import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectGolden } from "../../support/golden.js";

describe("expectGolden", () => {
  let dir = "";
  const saved = process.env.UPDATE_GOLDEN;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "golden-"));
    delete process.env.UPDATE_GOLDEN;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.UPDATE_GOLDEN;
    else process.env.UPDATE_GOLDEN = saved;
  });

  it("compares JSON values structurally and text exactly", () => {
    writeFileSync(join(dir, "a.json"), '{"b": [1, 2], "a": "x"}');
    expectGolden({ a: "x", b: [1, 2], gone: undefined }, join(dir, "a.json"));
    expect(() => expectGolden({ a: "y", b: [1, 2] }, join(dir, "a.json"))).toThrow();
    writeFileSync(join(dir, "t.txt"), "line\n");
    expectGolden("line\n", join(dir, "t.txt"));
    expect(() => expectGolden("line", join(dir, "t.txt"))).toThrow();
  });

  it("fails on a missing golden file unless asked to write it", () => {
    const path = join(dir, "sub", "new.json");
    expect(() => expectGolden({ a: 1 }, path)).toThrow(/UPDATE_GOLDEN=1/);
    process.env.UPDATE_GOLDEN = "1";
    expectGolden({ a: 1 }, path);
    expect(readFileSync(path, "utf8")).toBe('{\n  "a": 1\n}\n');
  });
});
