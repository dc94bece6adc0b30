/**
 * `document_ingest` of a served path against a folder swapped for a link in
 * a loop: another process turns `notes/` into a link to a folder outside
 * the served one and back as fast as it can, while the server reads
 * `notes/secret.md` over and over. Whatever wins each race, nothing from
 * outside the folder is ever read or stored. SWAP_TRIES (default 1,500
 * direct reads) and SWAP_INGESTS (default 60 full document_ingest calls)
 * size the run.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readServedFile } from "../../src/documents/served-file.js";
import { setMembership } from "../../src/store/access/memberships.js";
import { createProject } from "../../src/store/access/projects.js";
import { actions as productActions } from "../../tools/index.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const TRIES = Number(process.env.SWAP_TRIES ?? 1500);
const INGESTS = Number(process.env.SWAP_INGESTS ?? 60);
const MARKER = "Zorblax outside marker";

/** Swaps `<root>/notes` between the real folder and a link to `outside`, until killed. */
const SWAPPER = `
const fs = require("node:fs");
const [root, outside] = process.argv.slice(1);
const notes = root + "/notes", real = root + "/notes.real";
for (;;) {
  try { fs.renameSync(notes, real); fs.symlinkSync(outside, notes); } catch {}
  try { fs.unlinkSync(notes); fs.renameSync(real, notes); } catch {}
}`;

describe("a served folder swapped for a link in a loop", () => {
  let w: TestWorld;
  let outside: string;
  let project: string;
  let swapper: ChildProcess;

  beforeAll(async () => {
    w = await createTestWorld({ actions: productActions, env: { PKS_RATE_LIMIT: "1000000" } });
    project = (await createProject(w.app.db, { name: "served", rootPath: w.root })).projectId;
    await setMembership(w.app.db, project, w.userIds.editor, "editor");
    mkdirSync(join(w.root, "notes"));
    writeFileSync(join(w.root, "notes", "secret.md"), "# Inside\n\nThe served copy.\n");
    outside = mkdtempSync(join(tmpdir(), "pks-outside-"));
    writeFileSync(join(outside, "secret.md"), `# Outside\n\n${MARKER}.\n`);
    swapper = spawn(process.execPath, ["-e", SWAPPER, w.root, outside], { stdio: "ignore" });
  });
  afterAll(async () => {
    swapper.kill("SIGKILL");
    await w.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it("the read never returns bytes from outside the folder", async () => {
    const outcomes = new Map<string, number>();
    for (let i = 0; i < TRIES; i++) {
      const outcome = await readServedFile(w.root, "notes/secret.md").then(
        (r) => (Buffer.from(r.bytes).toString("utf8").includes(MARKER) ? "read outside" : "read inside"),
        (err: Error) => err.message.replace(/notes\/secret\.md/g, "…"),
      );
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    console.log(`served-path race, ${TRIES} reads:`, Object.fromEntries(outcomes));
    expect(outcomes.get("read outside") ?? 0).toBe(0);
    expect(outcomes.get("read inside") ?? 0).toBeGreaterThan(0);
  });

  it("document_ingest never stores bytes from outside the folder", async () => {
    for (let i = 0; i < INGESTS; i++) {
      const res = await send(w, "/v1/api/actions", {
        method: "POST",
        key: w.keys.editor,
        project,
        json: { action: "document_ingest", input: { source: "notes/secret.md" } },
      });
      expect(res.status).toBe(200);
      const { taskId } = ((await res.json()) as { result: { taskId: string } }).result;
      await settled(taskId);
    }
    const stored = await w.app.db.all<{ text: string }>(
      "SELECT text FROM cells WHERE text LIKE ? UNION ALL SELECT text FROM factions WHERE text LIKE ?",
      [`%${MARKER}%`, `%${MARKER}%`],
    );
    expect(stored).toEqual([]);
  });

  async function settled(taskId: string): Promise<void> {
    for (let i = 0; i < 600; i++) {
      const task = (await (await send(w, `/v1/tasks/${taskId}`, { key: w.keys.editor })).json()) as { status: string };
      if (task.status !== "queued" && task.status !== "running") return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`task ${taskId} did not finish`);
  }
});
