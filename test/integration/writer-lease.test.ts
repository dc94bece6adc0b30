/**
 * Two `pks serve` processes on one database: the first holds the writer
 * lease and reads; the second, started while the first reads, serves and
 * requeues nothing. The first is killed (SIGKILL) mid-ingest: the second
 * takes the lease within seconds and finishes the queue; every accepted
 * file is read, once. (The readings the first had under way are claimed a
 * second time, each read isolated in a process of its own: slow here, by
 * design.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/db.js";
import { spawnServe } from "../support/spawn-pks.js";
import type { ServedPks } from "../support/spawn-pks.js";

const ENV = { PKS_RATE_LIMIT: "100000", PKS_READERS: "1" };
const FILES = 6;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Markdown document of a few hundred lines, different per file. */
function document(i: number): string {
  const parts = [`# Ledger ${i}`];
  for (let s = 0; s < 150; s++) {
    parts.push(`## Part ${s} of ledger ${i}`);
    for (let l = 0; l < 8; l++) parts.push(`The keeper ${i} records entry ${s}.${l} in the harbor book, and the trader checks it twice.`);
  }
  return parts.join("\n\n");
}

interface Lease {
  state: string;
  files: { queued: number; reading: number; ready: number; failed: number };
}

async function lease(server: ServedPks, key: string): Promise<Lease> {
  const r = await fetch(`${server.rest}/projects/${server.projectId}/ingest`, { headers: { authorization: `Bearer ${key}` } });
  return (await r.json()) as Lease;
}

async function until<T>(what: string, limitMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`);
    await pause(50);
  }
}

describe("many processes, one writer", () => {
  const root = mkdtempSync(join(tmpdir(), "pks-lease-"));
  const servers: ServedPks[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("a second process serves without requeueing, takes the lease when the holder is killed, and every accepted file is read once", async () => {
    const first = await spawnServe(root, ENV).ready;
    servers.push(first);
    const key = first.key!;
    const files = Array.from({ length: FILES }, (_, i) => ({ path: `docs/ledger-${i}.md`, content: Buffer.from(document(i)).toString("base64") }));
    const accepted = await fetch(`${first.rest}/projects/${first.projectId}/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ files }),
    });
    expect(accepted.status).toBe(200);

    // The second starts while the first reads.
    await until("a first reading", 60_000, async () => ((await lease(first, key)).files.ready > 0 ? true : undefined));
    const second = await spawnServe(root, ENV).ready;
    servers.push(second);
    const dbUrl = `file:${join(root, ".pks", "pks.db")}`;
    const db = await openDatabase({ url: dbUrl });
    const maxAttempts = async () => Number((await db.get<{ n: number }>("SELECT max(attempts) AS n FROM files"))?.n ?? 0);
    await pause(500);
    expect(await maxAttempts()).toBe(1);
    const before = await lease(second, key);
    expect(before.files.queued + before.files.reading).toBeGreaterThan(0);

    const holderOf = async () => (await db.get<{ holder: string }>("SELECT holder FROM writer_lease"))?.holder;
    const firstHolder = await holderOf();
    expect(firstHolder).toBeDefined();
    await first.kill("SIGKILL");
    const killedAt = Date.now();
    // Within seconds: the first's term (8 s) runs out and the second's next try (every second) takes it.
    await until("the second to take the lease", 30_000, async () => ((await holderOf()) !== firstHolder ? true : undefined));
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    const settled = await until("the second to finish the queue", 400_000, async () => {
      const l = await lease(second, key);
      return l.files.ready + l.files.failed === FILES && l.state === "idle" ? l : undefined;
    });
    expect(settled.files).toEqual({ queued: 0, reading: 0, ready: FILES, failed: 0 });

    // Read once: at most the one interrupted reading was claimed again, and no file holds two readings' rows.
    expect(await maxAttempts()).toBeLessThanOrEqual(2);
    const doubled = await db.all(
      `SELECT file_id, content_hash, count(*) AS n FROM factions WHERE retired_at IS NULL GROUP BY file_id, content_hash HAVING n > 1 LIMIT 5`,
    );
    expect(doubled).toEqual([]);
    const live = await db.get<{ n: number }>("SELECT count(DISTINCT file_id) AS n FROM factions WHERE retired_at IS NULL");
    expect(Number(live?.n)).toBe(FILES);
    db.close();
  }, 480_000);
});
