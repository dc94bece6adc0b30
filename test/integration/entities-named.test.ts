import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import { entitiesNamed } from "../../src/store/graph/graph-neighbors.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

const FILES: Array<[string, string]> = [
  ["src/invoice.ts", "/** An invoice sent to a customer. */\nexport class Invoice {\n  total = 0;\n}\n\nexport function invoices(): Invoice[] {\n  return [];\n}\n\nexport const INVOICE_LIMIT = 10;\n"],
  ["src/refund.py", "class Refund:\n    def invoice(self):\n        return None\n"],
  ["billing.md", "# Billing\n\nDana Reyes owns the Invoice process. Invoices are issued monthly by Acme Payments.\n"],
];

interface EntityRow {
  entity_id: string;
  kind: string;
  name: string;
  norm_name: string;
  live: number;
}

describe("entities a question names", () => {
  let w: TestWorld;
  let all: EntityRow[];

  beforeAll(async () => {
    w = await createTestWorld({ actions });
    await ingest(w, FILES.map(([p, t]) => fileEntry(p, t)));
    await w.app.worker.whenIdle();
    all = await w.app.deps.db.all<EntityRow>(
      `SELECT e.entity_id, e.kind, e.name, e.norm_name,
         EXISTS (SELECT 1 FROM cell_entities ce JOIN cells c ON c.rowid = ce.cell_rowid WHERE ce.entity_rowid = e.rowid AND c.retired_at IS NULL) AS live
       FROM entities e WHERE e.project_id = ?`,
      [w.projectId],
    );
  });
  afterAll(async () => w.close());

  /** What the lookup answers, worked out over every entity of the project. */
  const expected = (names: string[], limit = 50) =>
    all
      .filter((e) => Number(e.live) === 1 && (names.includes(e.norm_name) || names.includes(e.name.toLowerCase())))
      .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.entity_id < b.entity_id ? -1 : 1))
      .slice(0, limit)
      .map((e) => ({ entityId: e.entity_id, kind: e.kind, name: e.name }));

  it("finds entities by normalized and by lower-cased name, backing a live cell, by kind and id", async () => {
    for (const names of [["invoice"], ["invoices"], ["invoice_limit", "dana reyes"], ["refund", "acme payments", "nothing here"], ["total"]]) {
      const found = await entitiesNamed(w.app.db, [w.projectId], names);
      expect(found, names.join(",")).toEqual(expected(names));
    }
    const invoice = await entitiesNamed(w.app.db, [w.projectId], ["invoice"]);
    // Names of several kinds and spellings meet: the class, the method and the concept are all found.
    expect(new Set(invoice.map((e) => e.name)).size).toBeGreaterThan(1);
    expect(await entitiesNamed(w.app.db, [w.projectId], [])).toEqual([]);
  });
});
