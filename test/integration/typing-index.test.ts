/**
 * The incremental typing pass: a batch is typed from the files it touched
 * and the files holding the same instance sources, and leaves the store as
 * the whole pass would.
 */
import { afterEach, describe, expect, it } from "vitest";
import { reviewTypes } from "../../src/categories/review-types.js";
import { TypingIndex } from "../../src/categories/typing-index.js";
import type { Db } from "../../src/store/db.js";
import { proposalsByFingerprint } from "../../src/store/categories/category-proposals.js";
import { listLiveFiles } from "../../src/store/files/files.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

const incident = (title: string) => `# Incident: ${title}\n\n- Severity: high\n- Owner: Alice\n- Service: billing\n- Date: 2026-03-02\n\n${title} affected payments.\n`;
const people = (extra: string) =>
  `name,role,team${extra ? `,${extra}` : ""}\n` +
  ["Ada,engineer,core", "Grace,admiral,navy", "Linus,maintainer,kernel", "Margaret,director,apollo"].map((row) => (extra ? `${row},x` : row)).join("\n") +
  "\n";

/** The proposals of a project as the store holds them (what either pass writes). */
async function proposals(db: Db, projectId: string) {
  const rows = [...(await proposalsByFingerprint(db, projectId)).values()];
  return rows.map((p) => ({ fingerprint: p.fingerprint, name: p.name, fields: p.fields, evidence: p.evidence, status: p.status })).sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
}

/** The database with the file of every faction row a read answered recorded (the ready files' bare ids are no material). */
function recording(db: Db): { db: Db; files: Set<string> } {
  const files = new Set<string>();
  const all: Db["all"] = async (sql, args) => {
    const rows = await db.all(sql, args);
    for (const row of rows as Array<Record<string, unknown>>) if (typeof row.file_id === "string" && "faction_id" in row) files.add(row.file_id);
    return rows as never;
  };
  return { db: { ...db, all }, files };
}

describe("incremental typing", () => {
  let w: TestWorld;
  afterEach(async () => w?.close());

  it("types a batch from the files it touched and those sharing their sources, and the whole pass then changes nothing", async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    const db = w.app.deps.db;
    await ingest(w, [
      fileEntry("incidents/payments.md", incident("Payment outage")),
      fileEntry("incidents/login.md", incident("Login failures")),
      fileEntry("incidents/search.md", incident("Search latency")),
      fileEntry("team/people.csv", people("")),
      fileEntry("src/app.ts", "export function start(port: number): void {\n  console.log(port);\n}\n"),
    ]);
    await w.app.worker.whenIdle();
    const ids = new Map((await listLiveFiles(db, w.projectId)).map((f) => [f.path, f.fileId]));
    const index = new TypingIndex();
    const first = await index.review(db, w.projectId, [], new Date().toISOString());
    expect(first.whole).toBe(true);
    const before = await proposals(db, w.projectId);
    expect(before.map((p) => p.name)).toEqual(expect.arrayContaining(["Incident"]));

    // A batch that changes the table: its rows are re-read, the incidents' are not.
    await ingest(w, [fileEntry("team/people.csv", people("office"))]);
    await w.app.worker.whenIdle();
    const spy = recording(db);
    const pass = await index.review(spy.db, w.projectId, [ids.get("team/people.csv")!], new Date().toISOString());
    expect(pass.whole).toBe(false);
    expect([...spy.files]).toEqual([ids.get("team/people.csv")]);
    expect(pass.filesRead).toBe(1);

    // A batch of source code reads no material but its own file's (none).
    const code = recording(db);
    const none = await index.review(code.db, w.projectId, [ids.get("src/app.ts")!], new Date().toISOString());
    expect(none).toMatchObject({ whole: false, filesRead: 1, proposed: 0, refreshed: 0, dropped: 0 });
    expect([...code.files]).toEqual([]);

    // The app's own pass after the edit was the incremental one; the whole pass finds nothing left to change.
    const after = await proposals(db, w.projectId);
    expect(after).not.toEqual(before);
    const whole = await reviewTypes(db, w.projectId, new Date().toISOString());
    expect(whole).toMatchObject({ proposed: 0, refreshed: 0, dropped: 0, filed: 0, filled: 0, schemaProposals: 0 });
    expect(await proposals(db, w.projectId)).toEqual(after);
  });
});
