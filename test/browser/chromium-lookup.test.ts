/**
 * How the browser suite finds its Chromium, which decides whether it runs
 * or is reported as skipped. These run everywhere, Chromium or not.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findChromium } from "./support/chromium.js";

describe("finding Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "pks-chromium-"));
  const exe = (path: string, mode = 0o755) => {
    writeFileSync(path, "#!/bin/sh\n", { flag: "w" });
    chmodSync(path, mode);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("takes PKS_CHROMIUM when it names an executable, and nothing else when it does not", () => {
    const named = exe(join(dir, "my-chromium"));
    const plain = exe(join(dir, "not-executable"), 0o644);
    expect(findChromium({ PKS_CHROMIUM: named, PATH: "" })).toBe(named);
    expect(findChromium({ PKS_CHROMIUM: plain, PATH: dir })).toBeUndefined();
    expect(findChromium({ PKS_CHROMIUM: join(dir, "absent"), PATH: "" })).toBeUndefined();
  });

  it("else looks for chromium, then chromium-browser, along PATH", () => {
    const first = mkdtempSync(join(dir, "a-"));
    const second = mkdtempSync(join(dir, "b-"));
    const browser = exe(join(second, "chromium-browser"));
    expect(findChromium({ PATH: `${first}:${second}` })).toBe(browser);
    const chromium = exe(join(first, "chromium"));
    expect(findChromium({ PATH: `${first}:${second}` })).toBe(chromium);
    exe(join(second, "chromium"));
    expect(findChromium({ PATH: `${second}:${first}` })).toBe(join(second, "chromium"));
    expect(findChromium({ PATH: "" })).toBeUndefined();
    expect(findChromium({})).toBeUndefined();
  });
});
