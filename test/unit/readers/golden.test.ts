import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { readerFor } from "../../../src/readers/index.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { expectGolden } from "../../golden/golden.js";

const dir = fileURLToPath(new URL("../../golden/readers/", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  rst: "text/x-rst",
  log: "text/plain",
};

const PREVIEW_CHARS = 120;

/** A reviewable view of a reader's output: faction text is shortened. */
function view(out: ReadOutput): { factions: unknown[]; cells: unknown[] } {
  return {
    factions: out.factions.map((f, i) => ({
      i,
      factionType: f.factionType,
      inferredType: f.inferredType,
      location: f.location,
      headingPath: f.headingPath,
      text: f.text.length > PREVIEW_CHARS ? `${f.text.slice(0, PREVIEW_CHARS)}…` : f.text,
    })),
    cells: out.cells.map((c, i) => ({ i, faction: c.faction, parent: c.parent ?? null, text: c.text })),
  };
}

const inputs = readdirSync(dir).filter((name) => !name.endsWith(".golden.json"));

describe("reader golden files", () => {
  it.each(inputs)("%s", async (name) => {
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const input = {
      path: `docs/${name}`,
      contentType: CONTENT_TYPES[ext] ?? "application/octet-stream",
      bytes: new Uint8Array(readFileSync(`${dir}${name}`)),
    };
    const reader = readerFor(input);
    if (reader === undefined) throw new Error(`no reader for ${name}`);
    const actual = { reader: reader.name, ...view(await reader.read(input)) };
    expectGolden(actual, `${dir}${name}.golden.json`);
  });
});
