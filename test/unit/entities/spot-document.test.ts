import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveMentions } from "../../../src/entities/resolve-mentions.js";
import type { LocatedMention } from "../../../src/entities/resolve-mentions.js";
import type { SpottableReading } from "../../../src/entities/spot-document.js";
import { spotDocument } from "../../../src/entities/spot-document.js";
import { spotEntities, spotUndecided } from "../../../src/entities/spot-entities.js";
import { defaultContentType } from "../../../src/ingest/accept/media-types.js";
import { readerFor } from "../../../src/readers/index.js";
import { markdownReader } from "../../../src/readers/markdown/markdown-reader.js";

/** What spotting every cell in full and resolving gives: the answer `spotDocument` must equal. */
function spottedInFull(reading: SpottableReading) {
  const located: LocatedMention<number>[] = [];
  reading.cells.forEach((cell, j) => {
    const f = reading.factions[cell.faction];
    if (!f) return;
    const input = { text: cell.text, isHeading: f.factionType === "heading", headingPath: [...f.headingPath], factionType: f.factionType, factionText: f.text };
    for (const mention of spotEntities(input)) located.push({ cell: j, mention });
  });
  return resolveMentions(located);
}

async function markdown(text: string): Promise<SpottableReading> {
  return markdownReader.read({ path: "doc.md", contentType: "text/markdown", bytes: new TextEncoder().encode(text) });
}

function prose(text: string) {
  return { text, isHeading: false, headingPath: [], factionType: "text" };
}

describe("spotDocument", () => {
  it("finds what spotting every cell in full finds, on every golden reader input", async () => {
    const dir = new URL("../../golden/readers/input/", import.meta.url);
    let compared = 0;
    for (const name of readdirSync(dir).sort()) {
      const path = `docs/${name}`;
      const contentType = defaultContentType(path);
      const reader = readerFor({ path, contentType });
      if (reader === undefined) continue;
      const reading = await reader.read({ path, contentType, bytes: readFileSync(new URL(name, dir)) });
      if (reading.code !== undefined) continue;
      expect(spotDocument(reading), name).toEqual(spottedInFull(reading));
      compared++;
    }
    expect(compared).toBeGreaterThan(8);
  });

  it("settles a sentence opener the document names elsewhere, with the opener's cell", async () => {
    const reading = await markdown("Deno runs TypeScript.\n\nThe server also runs on Deno and Bun.\n\nInstall the tool first.\n");
    const entities = spotDocument(reading);
    expect(entities).toEqual(spottedInFull(reading));
    const deno = entities.find((e) => e.name === "Deno");
    expect(deno?.cells).toEqual([0, 1]);
    expect(entities.map((e) => e.name)).not.toContain("Install");
  });

  it("settles an everyday capitalised word met in two cells, which then backs an entity", async () => {
    const reading = await markdown("We deploy to Workers at night.\n\nLogs from Workers arrive late.\n");
    const entities = spotDocument(reading);
    expect(entities).toEqual(spottedInFull(reading));
    expect(entities.find((e) => e.name === "Workers")?.cells).toEqual([0, 1]);
  });
});

describe("spotUndecided", () => {
  it("leaves a lone sentence opener to the caller and keeps the cell's other mentions", () => {
    const spotted = spotUndecided(prose("Valgrind checks programs built with GCC."));
    expect(spotted.undecided).toEqual(["Valgrind"]);
    expect(spotted.mentions).toEqual(spotEntities(prose("Valgrind checks programs built with GCC.")).filter((m) => m.name !== "Valgrind"));
  });

  it("gives the full answer when another mention of the cell has the undecided name", () => {
    const cell = prose("Valgrind is a tool. Many people use Valgrind daily.");
    expect(spotUndecided(cell)).toEqual({ mentions: spotEntities(cell), undecided: [] });
  });

  it("decides headings and code blocks at once", () => {
    const heading = { text: "Installing Hono", isHeading: true, headingPath: [], factionType: "heading" };
    expect(spotUndecided(heading)).toEqual({ mentions: spotEntities(heading), undecided: [] });
  });
});
