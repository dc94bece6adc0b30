import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { glibcMalloc, MallocTrimmer, type Malloc } from "../../src/native-memory.js";

const MB = 1024 * 1024;

/** A fake allocator whose trims wait until `finish()` is called. */
function fakeMalloc(): Malloc & { trims: number; finish(): void } {
  let pending: (() => void) | undefined;
  const fake = {
    trims: 0,
    limitArenas: () => true,
    trim: () => {
      fake.trims++;
      return new Promise<void>((resolve) => (pending = resolve));
    },
    finish: () => pending?.(),
  };
  return fake;
}

describe("MallocTrimmer", () => {
  it("trims once the resident size has grown by the bound, one trim at a time, from the size after the last", async () => {
    const malloc = fakeMalloc();
    let rss = 100 * MB;
    const trimmer = new MallocTrimmer(malloc, 16, () => rss);
    trimmer.start();
    rss = 115 * MB;
    trimmer.look();
    expect(malloc.trims).toBe(0);
    rss = 116 * MB;
    trimmer.look();
    trimmer.look();
    expect(malloc.trims).toBe(1);
    rss = 90 * MB;
    malloc.finish();
    await new Promise((resolve) => setImmediate(resolve));
    rss = 105 * MB; // 15 MB past the 90 MB the trim left
    trimmer.look();
    expect(malloc.trims).toBe(1);
    rss = 107 * MB;
    trimmer.look();
    expect(malloc.trims).toBe(2);
    trimmer.stop();
  });

  it("never starts with a bound of 0, and stops with its last user", () => {
    vi.useFakeTimers();
    try {
      const malloc = fakeMalloc();
      let rss = 100 * MB;
      const off = new MallocTrimmer(malloc, 0, () => rss);
      off.start();
      rss = 900 * MB;
      vi.advanceTimersByTime(5000);
      expect(malloc.trims).toBe(0);

      const shared = new MallocTrimmer(malloc, 16, () => rss);
      shared.start();
      shared.start();
      shared.stop();
      rss = 1000 * MB;
      vi.advanceTimersByTime(1000);
      expect(malloc.trims).toBe(1);
      shared.stop();
      malloc.finish();
      rss = 2000 * MB;
      vi.advanceTimersByTime(5000);
      expect(malloc.trims).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("an app's share, stopped twice, is given up once: the other app's share keeps it running", async () => {
    vi.useFakeTimers();
    try {
      const malloc = fakeMalloc();
      let rss = 100 * MB;
      const trimmer = new MallocTrimmer(malloc, 16, () => rss);
      const first = trimmer.use();
      const second = trimmer.use();
      await first.stop();
      await first.stop();
      rss = 200 * MB;
      await vi.advanceTimersByTimeAsync(1000);
      expect(malloc.trims).toBe(1);
      malloc.finish();
      await vi.advanceTimersByTimeAsync(0);
      await second.stop();
      rss = 400 * MB;
      await vi.advanceTimersByTimeAsync(5000);
      expect(malloc.trims).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** The glibc version Node itself runs on (absent on macOS, Windows and musl). */
const glibcVersion = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;

describe.runIf(glibcVersion !== undefined)("glibc's allocator through koffi", () => {
  it("loads wherever Node runs on glibc (koffi's binary came with the install)", () => {
    expect(glibcMalloc()).not.toBeNull();
  });

  it("gives back the pages of freed small allocations that free() alone keeps", () => {
    // A child process, so the figures are its own: 120 MB in 1 KB mallocs, all
    // but every 64th freed (so no heap top is free for free() to give back).
    const script = fileURLToPath(new URL("../support/malloc-trim-child.ts", import.meta.url));
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", script], { encoding: "utf8" });
    const { held, afterFree, afterTrim } = JSON.parse(out) as { held: number; afterFree: number; afterTrim: number };
    expect(held).toBeGreaterThan(100);
    expect(afterFree).toBeGreaterThan(80); // free() kept the pages
    expect(afterFree - afterTrim).toBeGreaterThan(60);
  });
});
