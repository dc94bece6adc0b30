import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { csvReader } from "../../../src/readers/tables/csv-reader.js";
import { MAX_DATA_ROWS } from "../../../src/readers/tables/data-table.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { goldenInput } from "../../support/golden.js";
import { expectWellFormed } from "../../support/invariants.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";

const fixture = (name: string) => new Uint8Array(readFileSync(goldenInput("readers", name)));

async function read(source: string | Uint8Array, path = "data/table.csv"): Promise<ReadOutput> {
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  const out = await csvReader.read({ path, contentType: "", bytes });
  expectWellFormed(out);
  expectLocations(out, LOCATION_KEYS.lines);
  return out;
}

const texts = (out: ReadOutput): string[] => out.cells.map((c) => c.text);

describe("csvReader.accepts", () => {
  it.each([
    ["data/a.csv", "", true],
    ["data/a.TSV", "", true],
    ["data/a.tab", "", true],
    ["export", "text/csv; charset=utf-8", true],
    ["export", "text/tab-separated-values", true],
    ["data/a.json", "application/json", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(csvReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("csvReader.read", () => {
  it("makes a table faction with a summary and a row faction per record", async () => {
    const out = await read(fixture("data.csv"));
    expect(out.factions.map((f) => f.factionType)).toEqual(["table", "row", "row", "row", "row"]);
    expect(out.factions[0]?.location).toEqual({ lineStart: 1, lineEnd: 7 });
    expect(out.factions[0]?.text).toBe("id,name,city,joined,notes");
    expect(texts(out)[0]).toBe("columns: id, name, city, joined, notes; 4 rows");
    expect(texts(out)[2]).toBe("id: 2; name: Alan Turing; city: Manchester; joined: 2020-11-15");
    expect(out.cells.every((c) => c.parent === undefined)).toBe(true);
  });

  it("locates a record whose quoted field spans lines, skipping blank lines", async () => {
    const out = await read(fixture("data.csv"));
    const grace = out.factions[3];
    expect(grace?.location).toEqual({ lineStart: 5, lineEnd: 6 });
    expect(texts(out)[3]).toBe("id: 3; name: Grace Hopper; city: New York; joined: 2021-01-09; notes: Said: \"It's easier to ask forgiveness\" than permission.");
  });

  it("reads TSV by its extension", async () => {
    const out = await read(fixture("data.tsv"), "data/metrics.tsv");
    expect(out.factions[0]?.inferredType).toBe("text/tab-separated-values");
    expect(texts(out)).toEqual([
      "columns: metric, p50, p99, unit; 3 rows",
      "metric: latency; p50: 12; p99: 85; unit: ms",
      "metric: throughput; p50: 5400; p99: 4100; unit: req/s",
      "metric: errors; p50: 0.1; p99: 0.9; unit: %",
    ]);
  });

  it("guesses a semicolon delimiter and reads a first row of data as data", async () => {
    const out = await read("1;Ada;London\n2;Alan;Manchester\n");
    expect(texts(out)).toEqual(["3 columns; 2 rows", "1; Ada; London", "2; Alan; Manchester"]);
    expect(out.factions[0]?.text).toBe("1;Ada;London");
  });

  it("takes a single name over numbers for a header of one column", async () => {
    expect(texts(await read("count\n1\n2\n"))).toEqual(["columns: count; 2 rows", "count: 1", "count: 2"]);
    expect(texts(await read("Ada\nAlan\n"))[0]).toBe("1 column; 2 rows");
  });

  it("takes a header with an unnamed index column", async () => {
    expect(texts(await read(",city,visits\n0,Oslo,12\n1,Rome,30\n"))).toEqual([
      "columns: city, visits; 2 rows",
      "0; city: Oslo; visits: 12",
      "1; city: Rome; visits: 30",
    ]);
  });

  it("counts but does not read records past the cap", async () => {
    const rows = Array.from({ length: MAX_DATA_ROWS + 5 }, (_, i) => `${i},item ${i}`);
    const out = await csvReader.read({ path: "big.csv", contentType: "", bytes: new TextEncoder().encode(`id,name\n${rows.join("\n")}\n`) });
    expect(out.factions).toHaveLength(MAX_DATA_ROWS + 1);
    expect(out.cells[0]?.text).toBe(`columns: id, name; ${MAX_DATA_ROWS + 5} rows; first ${MAX_DATA_ROWS} read`);
    expect(out.factions[0]?.location).toEqual({ lineStart: 1, lineEnd: MAX_DATA_ROWS + 1 });
    expect(out.cells.at(-1)?.text).toBe(`id: ${MAX_DATA_ROWS - 1}; name: item ${MAX_DATA_ROWS - 1}`);
  });

  it("reads nothing from an empty or blank file", async () => {
    expect(await read("")).toEqual({ factions: [], cells: [] });
    expect(await read("\n , \n")).toEqual({ factions: [], cells: [] });
  });
});
