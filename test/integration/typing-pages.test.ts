/**
 * The whole typing pass reads the project a page of files at a time: over
 * a project larger than one page it proposes what reading every file at
 * once proposes, and no read of material it makes holds more than a page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TypingIndex } from "../../src/categories/typing-index.js";
import { proposeShapes } from "../../src/categories/propose/propose-shapes.js";
import { readInstances } from "../../src/categories/propose/read-instances.js";
import type { Db } from "../../src/store/db.js";
import { dropPendingProposals, proposalsByFingerprint } from "../../src/store/categories/category-proposals.js";
import { readTypingMaterial } from "../../src/store/categories/typing-material.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

const PAGE_ROWS = 16;

const incident = (title: string, owner: string) =>
  `# Incident: ${title}\n\n- Severity: high\n- Owner: ${owner}\n- Service: billing\n- Date: 2026-03-02\n\n${title} affected payments.\n`;
const sync = (week: number) =>
  `# Weekly sync ${week}\n\n- Attendees: Ada, Grace\n- Decisions: ship ${week}\n- Risks: none\n- Next: review\n\n## Notes\n\nNothing else.\n`;
const people = "name,role,team\nAda,engineer,core\nGrace,admiral,navy\nLinus,maintainer,kernel\n";
const services = "services:\n  - name: api\n    port: 8080\n  - name: web\n    port: 3000\n";

/** The database with every read of material (faction or cell rows) counted, in order. */
function counting(db: Db): { db: Db; reads: Array<{ kind: "factions" | "cells"; rows: number }> } {
  const reads: Array<{ kind: "factions" | "cells"; rows: number }> = [];
  const all: Db["all"] = async (sql, args) => {
    const rows = (await db.all(sql, args)) as Array<Record<string, unknown>>;
    const first = rows[0];
    if (first && "faction_id" in first && "faction_type" in first) reads.push({ kind: "factions", rows: rows.length });
    else if (first && "cell_id" in first && "parent_cell_id" in first) reads.push({ kind: "cells", rows: rows.length });
    return rows as never;
  };
  return { db: { ...db, all }, reads };
}

/** The stored proposals, as the pass wrote them. */
async function stored(db: Db, projectId: string) {
  const rows = [...(await proposalsByFingerprint(db, projectId)).values()];
  return rows.map((p) => ({ fingerprint: p.fingerprint, name: p.name, description: p.description, fields: p.fields, evidence: p.evidence })).sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
}

describe("the whole typing pass in pages", () => {
  let w: TestWorld;
  afterEach(async () => w?.close());

  it("proposes what one read of the whole project proposes, holding at most a page of material at a time", async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    const db = w.app.deps.db;
    const owners = ["Alice", "Bob", "Carol", "Dan", "Erin", "Frank"];
    await ingest(w, [
      ...owners.map((owner, i) => fileEntry(`incidents/${i}.md`, incident(`Outage ${i}`, owner))),
      ...[1, 2, 3].map((week) => fileEntry(`meetings/sync-${week}.md`, sync(week))),
      fileEntry("notes/one-pair.md", "# Lunch\n\n- Place: cafe\n\nIt was fine.\n"),
      fileEntry("team/people.csv", people),
      fileEntry("deploy/services.yaml", services),
      fileEntry("src/app.ts", "export function start(port: number): void {\n  console.log(port);\n}\n"),
    ]);
    await w.app.worker.whenIdle();

    // What the pass proposed when it read every file at once: the material in one read, its instances, their shapes.
    const material = await readTypingMaterial(db, w.projectId);
    const expected = proposeShapes(readInstances(material.factions, material.cells))
      .map((s) => ({ fingerprint: s.fingerprint, name: s.name, description: s.description, fields: s.fields, evidence: [...new Set(s.evidence)] }))
      .sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
    expect(expected.map((p) => p.name)).toEqual(expect.arrayContaining(["Incident", "Weekly sync", "Person", "Service"]));
    const rows = material.factions.length + material.cells.length;
    const largestFile = Math.max(
      ...(await Promise.all([...new Set(material.factions.map((f) => f.fileId))].map(async (id) => {
        const one = await readTypingMaterial(db, w.projectId, [id]);
        return one.factions.length + one.cells.length;
      }))),
    );
    expect(largestFile).toBeLessThanOrEqual(PAGE_ROWS);
    expect(rows).toBeGreaterThan(3 * PAGE_ROWS);

    // The pending proposals dropped, the whole pass in pages writes them again, exactly.
    const pending = [...(await proposalsByFingerprint(db, w.projectId)).values()].map((p) => p.proposalId);
    await db.transaction((tx) => dropPendingProposals(tx, pending));
    const spy = counting(db);
    const pass = await new TypingIndex({ pageRows: PAGE_ROWS }).review(spy.db, w.projectId, [], new Date().toISOString());
    expect(pass).toMatchObject({ whole: true, proposed: expected.length, refreshed: 0, dropped: 0 });
    expect(await stored(db, w.projectId)).toEqual(expected);

    // Every page is one read of factions and one of their cells, together at most a page.
    const pages = spy.reads.filter((r) => r.kind === "factions").map((r, i) => r.rows + (spy.reads.filter((c) => c.kind === "cells")[i]?.rows ?? 0));
    expect(spy.reads.map((r) => r.kind)).toEqual(pages.flatMap(() => ["factions", "cells"]));
    expect(pages.length).toBeGreaterThan(3);
    expect(Math.max(...pages)).toBeLessThanOrEqual(PAGE_ROWS);
    expect(pages.reduce((a, b) => a + b, 0)).toBe(rows);
  });
});
