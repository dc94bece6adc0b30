import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest, liveCells } from "../support/ingest-helpers.js";
import { fillTextAtLines } from "../../src/store/graph/faction-text.js";
import type { SlicedTextRow } from "../../src/store/graph/faction-text.js";

/**
 * A 2,000-line Markdown document whose sections hold what crosses lines:
 * sub-headings, lists, fenced code with `#` comments, tables, and
 * reference links defined at the end.
 */
function longDocument(): string[] {
  const lines: string[] = ["# Handbook", "", "An introduction that links to the [guide].", ""];
  for (let s = 0; lines.length < 1990; s++) {
    lines.push(`## Section ${s}`, "", `Section ${s} states fact ${s}. It adds a second sentence.`, "");
    lines.push(`### Detail ${s}`, "", `- point ${s}a`, `- point ${s}b`, "");
    if (s % 3 === 0) lines.push("```sh", `# step ${s}`, `run --section ${s}`, "```", "");
    if (s % 4 === 1) lines.push("| key | value |", "|---|---|", `| section | ${s} |`, "");
  }
  while (lines.length < 1998) lines.push("");
  lines.push("[guide]: https://example.com/guide", "");
  return lines;
}

interface FactionRow {
  faction_id: string;
  line_start: number | null;
  heading_path: string;
  text: string;
}

/** A file's live factions, a text stored at its lines read back from the chunk as the store reads it. */
async function factionsOf(w: TestWorld, fileId: string): Promise<FactionRow[]> {
  const rows = await w.app.deps.db.all<FactionRow & SlicedTextRow>(
    `SELECT f.faction_id, f.line_start, f.line_end, f.heading_path, f.text, f.text_at_lines, fi.project_id, fi.read_chunk_id
     FROM factions f JOIN files fi ON fi.file_id = f.file_id WHERE f.file_id = ? AND f.retired_at IS NULL ORDER BY f.ordinal`,
    [fileId],
  );
  await fillTextAtLines(w.app.deps.db, rows);
  return rows.map((r) => ({ faction_id: r.faction_id, line_start: r.line_start, heading_path: r.heading_path, text: r.text ?? "" }));
}

describe("a one-line edit in a long Markdown document", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterEach(async () => w.close());

  it("changes only the touched section's faction, keeps every other faction and cell, and moves the anchors below", async () => {
    const lines = longDocument();
    expect(lines).toHaveLength(2000);
    const first = await ingest(w, [fileEntry("handbook.md", lines.join("\n"))]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    const before = await factionsOf(w, fileId);
    const cellsBefore = await liveCells(w, fileId);
    expect(before.length).toBeGreaterThan(500);

    // One line becomes two: the paragraph of section 40 changes, and everything below moves down a line.
    const at = lines.indexOf("Section 40 states fact 40. It adds a second sentence.");
    lines.splice(at, 1, "Section 40 states a new fact.", "It spans two lines now.");
    await ingest(w, [fileEntry("handbook.md", lines.join("\n"))]);
    await w.app.worker.whenIdle();
    const after = await factionsOf(w, fileId);
    const cellsAfter = await liveCells(w, fileId);

    const beforeIds = new Set(before.map((f) => f.faction_id));
    const afterIds = new Set(after.map((f) => f.faction_id));
    const added = after.filter((f) => !beforeIds.has(f.faction_id));
    const retired = before.filter((f) => !afterIds.has(f.faction_id));
    expect(added.map((f) => [f.line_start, f.text])).toEqual([[at + 1, "Section 40 states a new fact.\nIt spans two lines now."]]);
    expect(retired.map((f) => f.text)).toEqual(["Section 40 states fact 40. It adds a second sentence."]);
    expect(after).toHaveLength(before.length);

    // Every other faction kept its id and heading path; those below the edit moved one line down.
    after.forEach((f, i) => {
      const old = before[i]!;
      if (f.faction_id === added[0]!.faction_id) return;
      expect(f.faction_id).toBe(old.faction_id);
      expect(f.heading_path).toBe(old.heading_path);
      expect(f.line_start).toBe(old.line_start! + (old.line_start! > at + 1 ? 1 : 0));
    });
    expect(after.at(-1)!.line_start).toBe(before.at(-1)!.line_start! + 1);

    // Cells: only the edited paragraph's were renewed (two sentences out, two in); the rest kept their ids.
    const oldCellIds = new Set(cellsBefore.map((c) => c.cell_id));
    const newCells = cellsAfter.filter((c) => !oldCellIds.has(c.cell_id));
    expect(newCells.map((c) => c.text)).toEqual(["Section 40 states a new fact.", "It spans two lines now."]);
    expect(new Set(newCells.map((c) => c.faction_id))).toEqual(new Set([added[0]!.faction_id]));
    expect(cellsAfter).toHaveLength(cellsBefore.length);
    // The reference defined at the end still makes a link of the introduction's `[guide]`.
    expect(cellsAfter.map((c) => c.text)).toContain("An introduction that links to the guide.");
  });

  it("a renamed heading changes its faction only, and gives the section below it the new heading path", async () => {
    const lines = longDocument();
    const first = await ingest(w, [fileEntry("handbook.md", lines.join("\n"))]);
    await w.app.worker.whenIdle();
    const fileId = first.body.accepted[0]!.fileId;
    const before = await factionsOf(w, fileId);
    const cellsBefore = await liveCells(w, fileId);

    const at = lines.indexOf("## Section 70");
    lines[at] = "## Section seventy";
    await ingest(w, [fileEntry("handbook.md", lines.join("\n"))]);
    await w.app.worker.whenIdle();
    const after = await factionsOf(w, fileId);

    const beforeIds = new Set(before.map((f) => f.faction_id));
    expect(after.filter((f) => !beforeIds.has(f.faction_id)).map((f) => f.text)).toEqual(["## Section seventy"]);
    expect(after).toHaveLength(before.length);
    const moved = after.filter((f, i) => f.heading_path !== before[i]!.heading_path && beforeIds.has(f.faction_id));
    expect(moved.length).toBeGreaterThan(2);
    for (const f of moved) expect(JSON.parse(f.heading_path)).toContain("Section seventy");
    expect(after.map((f) => f.line_start)).toEqual(before.map((f) => f.line_start));
    // Cells under the renamed heading keep their ids (only the heading's own cell is new).
    const cellsAfter = await liveCells(w, fileId);
    const oldCellIds = new Set(cellsBefore.map((c) => c.cell_id));
    expect(cellsAfter.filter((c) => !oldCellIds.has(c.cell_id)).map((c) => c.text)).toEqual(["Section seventy"]);
  });
});
