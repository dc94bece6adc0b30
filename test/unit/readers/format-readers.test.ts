/**
 * Every document-format reader, reached through the registry, on a
 * sample of its format: the right reader is chosen, and its output keeps
 * the shared invariants (`invariants.ts`, for readers whose factions have
 * lines) and the location rules of its family (`location-invariants.ts`).
 * Media containers reach no reader and so yield no cells.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readerFor, readers } from "../../../src/readers/index.js";
import { buildDocx } from "../../support/docx-fixture.js";
import { goldenInput } from "../../support/golden.js";
import { expectWellFormed } from "../../support/invariants.js";
import type { LocationKey } from "../../support/location-invariants.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";
import { buildPdf } from "../../support/pdf-fixture.js";

const fixture = (name: string) => new Uint8Array(readFileSync(goldenInput("readers", name)));

interface Sample {
  path: string;
  reader: string;
  bytes: () => Uint8Array;
  keys: readonly LocationKey[];
}

const SAMPLES: Sample[] = [
  { path: "site/page.html", reader: "html", bytes: () => fixture("page.html"), keys: LOCATION_KEYS.lines },
  { path: "docs/report.pdf", reader: "pdf", bytes: () => buildPdf([[{ text: "One page of text." }], []]), keys: LOCATION_KEYS.pages },
  {
    path: "docs/memo.docx",
    reader: "docx",
    bytes: () => buildDocx([{ kind: "p", text: "Memo", style: "Heading1" }, { kind: "p", text: "Body text here." }]),
    keys: LOCATION_KEYS.none,
  },
  { path: "data/people.csv", reader: "csv", bytes: () => fixture("data.csv"), keys: LOCATION_KEYS.lines },
  { path: "data/metrics.tsv", reader: "csv", bytes: () => fixture("data.tsv"), keys: LOCATION_KEYS.lines },
  { path: "data/events.jsonl", reader: "jsonl", bytes: () => new TextEncoder().encode('{"a":1}\n{"a":2}\n'), keys: LOCATION_KEYS.lines },
  { path: ".vscode/settings.json", reader: "config", bytes: () => fixture("settings.json"), keys: LOCATION_KEYS.lines },
  { path: "compose.yaml", reader: "config", bytes: () => fixture("compose.yaml"), keys: LOCATION_KEYS.lines },
  { path: "pyproject.toml", reader: "config", bytes: () => fixture("pyproject.toml"), keys: LOCATION_KEYS.lines },
  { path: "media/talk.vtt", reader: "subtitles", bytes: () => fixture("talk.vtt"), keys: LOCATION_KEYS.media },
  { path: "media/talk.srt", reader: "subtitles", bytes: () => fixture("talk.srt"), keys: LOCATION_KEYS.media },
];

describe("document-format readers", () => {
  it("keeps plain text, then runs of lines for any other text, as the last readers", () => {
    expect(readers.slice(-2).map((r) => r.name)).toEqual(["text", "lexical"]);
    expect(readers.map((r) => r.name)).toEqual(expect.arrayContaining(["html", "pdf", "docx", "csv", "jsonl", "config", "subtitles"]));
  });

  it.each(SAMPLES)("$path is read by $reader and keeps the invariants", async (sample) => {
    const input = { path: sample.path, contentType: "application/octet-stream", bytes: sample.bytes() };
    const reader = readerFor(input);
    expect(reader?.name).toBe(sample.reader);
    if (reader === undefined) throw new Error(`no reader for ${sample.path}`);
    const out = await reader.read(input);
    expect(out.factions.length).toBeGreaterThan(0);
    expect(out.cells.length).toBeGreaterThan(0);
    expectLocations(out, sample.keys);
    // The shared checker requires line numbers, which pages and Word documents do not have.
    if (sample.keys.includes("lineStart")) expectWellFormed(out);
  });

  it.each(["assets/logo.png", "assets/intro.mp4", "assets/theme.mp3", "assets/clip.webm", "assets/photo.jpeg"])(
    "%s (a media container) reaches no reader",
    (path) => {
      const contentType = path.endsWith(".png") ? "image/png" : "application/octet-stream";
      expect(readerFor({ path, contentType })).toBeUndefined();
    },
  );
});
