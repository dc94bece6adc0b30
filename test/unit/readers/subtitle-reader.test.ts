import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { timestampMs } from "../../../src/readers/subtitle/subtitle-cues.js";
import { subtitleReader } from "../../../src/readers/subtitle/subtitle-reader.js";
import { goldenInput } from "../../support/golden.js";
import { expectWellFormed } from "../../support/invariants.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";

async function read(name: string): Promise<ReadOutput> {
  const bytes = new Uint8Array(readFileSync(goldenInput("readers", name)));
  const out = await subtitleReader.read({ path: `media/${name}`, contentType: "", bytes });
  expectWellFormed(out);
  expectLocations(out, LOCATION_KEYS.media);
  return out;
}

describe("subtitleReader.accepts", () => {
  it.each([
    ["talk.vtt", "", true],
    ["talk.SRT", "", true],
    ["captions", "text/vtt", true],
    ["captions", "application/x-subrip", true],
    ["talk.mp4", "video/mp4", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(subtitleReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("subtitleReader.read", () => {
  it("makes a media_segment per WebVTT cue with its start time and lines", async () => {
    const out = await read("talk.vtt");
    expect(out.factions.map((f) => [f.factionType, f.inferredType, f.location])).toEqual([
      ["media_segment", "text/vtt", { lineStart: 9, lineEnd: 12, audioStartMs: 1, videoStartMs: 1 }],
      ["media_segment", "text/vtt", { lineStart: 14, lineEnd: 16, audioStartMs: 4_500, videoStartMs: 4_500 }],
      ["media_segment", "text/vtt", { lineStart: 18, lineEnd: 19, audioStartMs: 3_723_250, videoStartMs: 3_723_250 }],
    ]);
  });

  it("strips markup, keeps speakers as prefixes, and skips header, NOTE and STYLE blocks", async () => {
    const out = await read("talk.vtt");
    expect(out.cells.map((c) => [c.faction, c.text])).toEqual([
      [0, "Ada Byron: Welcome to the launch of Orbit."],
      [0, "Ada Byron: It caches & serves responses."],
      [1, "Alan: Does it survive restarts?"],
      [1, "Ada Byron: Yes."],
      [1, "Ada Byron: Entries are reloaded from disk."],
      [2, "Thanks everyone!"],
    ]);
  });

  it("reads SRT cues, splitting dialogue turns marked by dashes", async () => {
    const out = await read("talk.srt");
    expect(out.factions.map((f) => f.location)).toEqual([
      { lineStart: 1, lineEnd: 3, audioStartMs: 1_000, videoStartMs: 1_000 },
      { lineStart: 5, lineEnd: 8, audioStartMs: 4_000, videoStartMs: 4_000 },
      { lineStart: 10, lineEnd: 12, audioStartMs: 70_500, videoStartMs: 70_500 },
    ]);
    expect(out.factions[0]?.inferredType).toBe("application/x-subrip");
    expect(out.cells.map((c) => c.text)).toEqual([
      "Welcome to the launch of Orbit.",
      "Does it survive restarts?",
      "Yes, Dr. Byron said so.",
      "Thanks everyone!",
    ]);
  });

  it("parses timestamps with and without hours, comma or dot, short fractions", () => {
    expect(timestampMs("00:00:01.000")).toBe(1_000);
    expect(timestampMs("01:02.5")).toBe(62_500);
    expect(timestampMs("1:00:00,25")).toBe(3_600_250);
    expect(timestampMs("00:00:00.000")).toBe(0);
  });
});
