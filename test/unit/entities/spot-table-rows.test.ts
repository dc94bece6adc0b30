import { describe, expect, it } from "vitest";
import { spotDocument } from "../../../src/entities/spot-document.js";
import { rowClaim } from "../../../src/readers/common/table-rows.js";
import { sentencesTagged } from "../../../src/entities/word-tags.js";

const CITIES = ["Berlin", "Lagos", "Lima", "Osaka", "Perth", "Quito", "Riga", "Turin"];

/** A CSV-shaped reading: one row faction and one row claim per record. */
function tableReading(rows: number) {
  const factions = [];
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const fields = [String(r), `Item 4-${r}`, CITIES[r % CITIES.length]!, String((r * 37) % 1000), `2026-0${1 + (r % 9)}-1${r % 10}`];
    factions.push({ factionType: "row", headingPath: [], text: fields.join(",") });
    cells.push({ faction: r, text: rowClaim(["id", "name", "city", "amount", "day"], fields) });
  }
  return { factions, cells };
}

describe("spotting the rows of a table", () => {
  it("tags a column's shapes once, not every row, and keeps the names a row holds", () => {
    const before = sentencesTagged();
    const entities = spotDocument(tableReading(2_000));
    const tagged = sentencesTagged() - before;
    expect(tagged).toBeLessThan(100);
    const names = entities.map((e) => e.name).sort();
    expect(names).toEqual([...CITIES].sort());
    const lima = entities.find((e) => e.name === "Lima")!;
    expect(lima.cells.length).toBe(250);
  });
});
