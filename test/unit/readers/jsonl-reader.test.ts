import { describe, expect, it } from "vitest";
import { jsonlReader } from "../../../src/readers/tables/jsonl-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { expectWellFormed } from "../../support/invariants.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";

async function read(source: string): Promise<ReadOutput> {
  const out = await jsonlReader.read({ path: "data/events.jsonl", contentType: "", bytes: new TextEncoder().encode(source) });
  expectWellFormed(out);
  expectLocations(out, LOCATION_KEYS.lines);
  return out;
}

describe("jsonlReader", () => {
  it("accepts JSON Lines by extension and media type", () => {
    expect(jsonlReader.accepts({ path: "a.jsonl", contentType: "" })).toBe(true);
    expect(jsonlReader.accepts({ path: "a.ndjson", contentType: "" })).toBe(true);
    expect(jsonlReader.accepts({ path: "stream", contentType: "application/x-ndjson" })).toBe(true);
    expect(jsonlReader.accepts({ path: "a.json", contentType: "application/json" })).toBe(false);
  });

  it("reads each line as a row and summarises the fields", async () => {
    const out = await read('{"id":1,"user":{"name":"Ada"},"tags":["a","b"]}\n\n{"id":2,"ok":true}\nnot json\n[1,2]\n');
    expect(out.factions.map((f) => [f.factionType, f.location.lineStart, f.location.lineEnd])).toEqual([
      ["table", 1, 5],
      ["row", 1, 1],
      ["row", 3, 3],
      ["row", 4, 4],
      ["row", 5, 5],
    ]);
    expect(out.cells.map((c) => [c.faction, c.text])).toEqual([
      [0, "fields: id, user, tags, ok; 4 records"],
      [1, "id: 1; user.name: Ada; tags: a, b"],
      [2, "id: 2; ok: true"],
      [4, "1, 2"],
    ]);
  });

  it("reads nothing from a blank file", async () => {
    expect(await read("\n  \n")).toEqual({ factions: [], cells: [] });
  });
});
