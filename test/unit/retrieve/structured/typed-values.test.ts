import { describe, expect, it } from "vitest";
import { datesIn, fieldUnit, inUnit, isoDuration, numbersIn, timesIn } from "../../../../src/retrieve/structured/typed-values.js";

const values = (text: string) => numbersIn(text).map((n) => n.value);

describe("typed values in prose", () => {
  it("numbers: grouping commas, decimals, words; the unit written after each", () => {
    expect(values("Each key may send 1,200 requests per minute.")).toEqual([1200]);
    expect(values("A fee of 2.5 percent, or forty thousand euros a year, or twenty-five days.")).toEqual([2.5, 40000, 25]);
    const [age] = numbersIn("a max-age of 600 seconds");
    expect(age).toMatchObject({ value: 600, unit: { dimension: "time", factor: 1 } });
    expect(numbersIn("at most 25 MB")[0]!.unit).toEqual({ dimension: "size", factor: 1024 ** 2 });
    expect(numbersIn("up 10% on last year")[0]!.unit).toEqual({ dimension: "ratio", factor: 1 });
  });

  it("no number inside a name, a version, a date, a clock time, an address or a path", () => {
    expect(values("API keys are hashed with SHA-256 in eu-west-1 under AES-256-GCM")).toEqual([]);
    expect(values("Version 2.4.0 was released on 12 March 2025 at 02:00 UTC")).toEqual([]);
    expect(values("Write to ops-2@example.com or see /v1/items or https://x.example/3")).toEqual([]);
    expect(values("Support ends on 2025-04-30; es2020 and utf8 are kept")).toEqual([]);
    // "one" alone is a pronoun as often as a count: it counts only with a unit.
    expect(values("the previous one is started, one object per line, one hour later")).toEqual([1]);
  });

  it("dates in ISO and in words, date-times with their zone, clock times", () => {
    expect(datesIn("released on 12 March 2025, then on March 3, 2026 and 2025-04-30").map((d) => d.value)).toEqual(["2025-03-12", "2026-03-03", "2025-04-30"]);
    expect(datesIn("cut over at 2025-04-30T14:05Z")[0]).toMatchObject({ value: "2025-04-30", dateTime: "2025-04-30T14:05:00Z" });
    expect(datesIn("cut over at 2025-04-30 14:05 +0200")[0]!.dateTime).toBe("2025-04-30T14:05:00+02:00");
    const text = "every night at 02:00 UTC, and at 7:30";
    expect(timesIn(text).map((t) => [t.value, text.slice(t.start, t.end)])).toEqual([
      ["02:00:00Z", "02:00 UTC"],
      ["07:30:00", "7:30"],
    ]);
    expect(timesIn("at 25:00")).toEqual([]);
  });

  it("durations as ISO 8601, units converted to the one a field names", () => {
    expect(numbersIn("takes ten minutes").map(isoDuration)).toEqual(["PT10M"]);
    expect(numbersIn("kept for 35 days").map(isoDuration)).toEqual(["P35D"]);
    expect(numbersIn("about 3 MB").map(isoDuration)).toEqual([undefined]);
    expect(fieldUnit(["timeout", "ms"], "")).toEqual({ dimension: "time", factor: 0.001 });
    expect(fieldUnit(["max", "upload", "size"], "largest upload in megabytes")).toEqual({ dimension: "size", factor: 1024 ** 2 });
    expect(fieldUnit(["window"], "in seconds or minutes")).toBeUndefined();
    const [tenMinutes] = numbersIn("ten minutes");
    expect(inUnit(tenMinutes!, { dimension: "time", factor: 1 })).toBe(600);
    expect(inUnit(tenMinutes!, { dimension: "size", factor: 1 })).toBeUndefined();
    expect(inUnit(tenMinutes!, undefined)).toBe(10);
  });
});

describe("the duration format", () => {
  it("accepts ISO 8601 durations (what the filler writes) and refuses prose", async () => {
    const { SCHEMA_FORMATS } = await import("../../../../src/retrieve/memory/schema-formats.js");
    const duration = SCHEMA_FORMATS.duration!;
    for (const ok of ["PT10M", "P90D", "P2W", "PT0.5S", "P1Y2M3DT4H5M6S", "P6M"]) expect(duration(ok), ok).toBe(true);
    for (const bad of ["P", "PT", "10 minutes", "P1W2D", "PT1.5", "p1d", "P1DT"]) expect(duration(bad), bad).toBe(false);
    for (const n of numbersIn("in 10 minutes, 90 days, 2 weeks, 500 ms, one year")) expect(duration(isoDuration(n)!), String(n.value)).toBe(true);
  });
});
