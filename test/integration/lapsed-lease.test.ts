/**
 * The writer lease's term can run out while its holder is alive: its thread
 * was busy (a long commit, a typing pass) and the renewal came late. While
 * no other process has taken it, the holder still writes: a claim or a
 * commit asks who holds the lease, not whether its term is still running.
 * Else the claim finds "nothing to claim" and the worker reports idle with
 * files queued, and readings under way are thrown away, their files left
 * `reading` until a restart.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

let dir: string;
let w: TestWorld;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "pks-lapsed-"));
  // A clock of its own keeps the reading worker on this thread, under the lease, where the test can reach the lease row.
  w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, clock: () => Date.now() });
  await w.app.worker.whenIdle();
});
afterEach(async () => {
  await w.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a holder whose term ran out, with no one else taking the lease, claims and commits its files", async () => {
  const holder = await w.app.db.get<{ holder: string }>("SELECT holder FROM writer_lease");
  expect(holder?.holder).toBeTruthy();
  // The term ran out (the renewal came late) and stays run out: a trigger undoes each renewal, as if every one came too
  // late. The row still names this process, and no other takes it.
  await w.app.db.execute("UPDATE writer_lease SET expires_at = 0");
  await w.app.db.execute(
    "CREATE TRIGGER lapse_lease AFTER UPDATE OF expires_at ON writer_lease WHEN new.expires_at > 0 BEGIN UPDATE writer_lease SET expires_at = 0; END",
  );
  const files = Array.from({ length: 4 }, (_, i) => fileEntry(`notes/n${i}.md`, `# Note ${i}\n\nThe lantern ${i} is lit at dusk.\n`));
  const { res } = await ingest(w, files);
  expect(res.ok).toBe(true);
  w.app.worker.kick();
  await w.app.worker.whenIdle();
  const statuses = await w.app.db.all<{ status: string }>("SELECT status FROM files ORDER BY path");
  expect(statuses.map((r) => r.status)).toEqual(["ready", "ready", "ready", "ready"]);
});

it("once another process has taken the lease, the old holder writes nothing", async () => {
  await w.app.db.execute("UPDATE writer_lease SET holder = 'elsewhere:1:x', expires_at = ?", [Date.now() + 60_000]);
  const { res } = await ingest(w, [fileEntry("notes/other.md", "# Other\n\nRead by the other process.\n")]);
  expect(res.ok).toBe(true);
  w.app.worker.kick();
  await new Promise((r) => setTimeout(r, 300));
  const row = await w.app.db.get<{ status: string }>("SELECT status FROM files WHERE path = 'notes/other.md'");
  expect(row?.status).toBe("queued");
});
