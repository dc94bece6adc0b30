/**
 * A full disk loses nothing and stops no read. The database is made full
 * with `PRAGMA max_page_count` (SQLite then answers SQLITE_FULL, as on a
 * full disk) once eight files are acknowledged: their readings' commits
 * fail, the files stay queued (never `failed`), reads answer 200, writes
 * answer 503 `storage_full` with `Retry-After`; once there is room again
 * every file ends `ready`. Below the free-space floor (`PKS_MIN_FREE_MB`)
 * uploads are refused before they are taken and no file is claimed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { onLog } from "../../src/logger.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

const files = Array.from({ length: 8 }, (_, i) =>
  fileEntry(`notes/n${i}.md`, `# Note ${i}\n\n${Array.from({ length: 12 }, (_, j) => `Paragraph ${j} of note ${i} speaks of Orion and the ${j}th harbour.\n\n`).join("")}`),
);

async function statuses(w: TestWorld): Promise<Record<string, number>> {
  const rows = await w.app.deps.db.all<{ status: string; n: number }>("SELECT status, count(*) AS n FROM files GROUP BY status");
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

function heard(message: RegExp, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(false);
    }, ms);
    const stop = onLog((record) => {
      if (!message.test(record.msg)) return;
      clearTimeout(timer);
      stop();
      resolve(true);
    });
  });
}

describe("a full disk", () => {
  let w: TestWorld | undefined;
  let dir: string;
  afterEach(async () => {
    await w?.close();
    w = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps acknowledged files queued, answers reads, refuses writes with Retry-After, and reads every file once there is room", async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-full-"));
    // A clock of its own keeps the worker on this connection, where the page limit applies.
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, clock: () => Date.now(), startWorker: false, env: { PKS_RATE_LIMIT: "10000" } });
    const accepted = await ingest(w, files);
    expect(accepted.res.status).toBe(200);
    const db = w.app.deps.db;
    const pages = Number((await db.get<{ page_count: number }>("PRAGMA page_count"))?.page_count);
    await db.execute(`PRAGMA max_page_count = ${pages + 1}`);
    const paused = heard(/the disk is full/, 20_000);
    await w.app.worker.start();
    // The worker pauses for space, or (as it did before) fails files for good.
    const world = w;
    let looking = true;
    const failedSome = (async () => {
      while (looking && !((await statuses(world)).failed ?? 0)) await new Promise((r) => setTimeout(r, 50));
      return false;
    })();
    const outcome = await Promise.race([paused, failedSome]);
    looking = false;
    await failedSome;
    expect(outcome, "files failed for good instead of waiting for space").toBe(true);

    const read = await send(w, `/v1/projects/${w.projectId}/entities?limit=1`, { key: w.keys.viewer });
    expect(read.status).toBe(200);
    // Large enough to need pages the database may not grow by.
    const late = `# Late\n\n${Array.from({ length: 4000 }, (_, i) => `Line ${i} of a file sent while the disk is full.\n`).join("")}`;
    const refused = await ingest(w, [fileEntry("late.md", late)]);
    expect(refused.res.status).toBe(503);
    expect(refused.res.headers.get("retry-after")).toBe("30");
    expect(refused.body).toMatchObject({ error: { code: "storage_full" } });
    const now = await statuses(w);
    expect(now.failed ?? 0).toBe(0);
    // A file or two may have fit in the last page; the rest wait, none failed.
    expect(now.ready ?? 0).toBeLessThan(8);
    expect((now.queued ?? 0) + (now.reading ?? 0) + (now.ready ?? 0)).toBe(8);

    await db.execute("PRAGMA max_page_count = 1073741823");
    // The upload refused before is taken now, and its kick ends the worker's pause at once.
    expect((await ingest(w, [fileEntry("late.md", "# Late\n\nSent once there was room again.\n")])).res.status).toBe(200);
    await w.app.worker.whenIdle();
    expect(await statuses(w)).toEqual({ ready: 9 });
    const attempts = await db.get<{ n: number }>("SELECT max(attempts) AS n FROM files");
    expect(Number(attempts?.n)).toBe(0);
  }, 60_000);

  it("below the free-space floor refuses uploads before taking them and claims nothing, and reads go on", async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-floor-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, clock: () => Date.now(), env: { PKS_MIN_FREE_MB: String(1024 * 1024 * 1024) } });
    const refused = await ingest(w, files.slice(0, 1));
    expect(refused.res.status).toBe(503);
    expect(refused.res.headers.get("retry-after")).toBe("30");
    expect(refused.body).toMatchObject({ error: { code: "storage_full" } });
    expect(await statuses(w)).toEqual({});
    expect((await send(w, `/v1/projects/${w.projectId}/entities?limit=1`, { key: w.keys.viewer })).status).toBe(200);
  });
});
