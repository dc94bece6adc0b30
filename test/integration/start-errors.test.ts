/**
 * Starting on a database that cannot be served says what is wrong and what
 * to do, never just `internal error`: a damaged file, a read-only file
 * system (an existing database, or a new one that cannot be created), a
 * disk with no space left. The mounts need root (CI runs as root).
 */
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";

const asRoot = process.getuid?.() === 0;

async function startError(dbPath: string): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "pks-start-root-"));
  try {
    const app = await createApp(loadConfig({ root, db: `file:${dbPath}` }, { PKS_LOG: "silent" }));
    await app.close();
    return "started";
  } catch (err) {
    return (err as Error).message;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe("start errors that name the problem", () => {
  let dir: string;
  const mounts: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pks-start-"));
  });
  afterAll(() => {
    for (const m of mounts.reverse()) execSync(`umount -l ${m}`);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a file that is no database", async () => {
    const path = join(dir, "junk.db");
    writeFileSync(path, "this is not a database, only text\n".repeat(300));
    expect(await startError(path)).toBe(
      `cannot start on the database ${path}: the file is damaged (not a database, or truncated); restore it from a backup, or move it aside to start on an empty one`,
    );
  });

  it.skipIf(!asRoot)("a database on a read-only file system, and a new one there", async () => {
    const writable = join(dir, "writable");
    mkdirSync(writable);
    expect(await startError(join(writable, "pks.db"))).toBe("started");
    const ro = join(dir, "ro");
    mkdirSync(ro);
    execSync(`mount --bind ${writable} ${ro} && mount -o remount,bind,ro ${ro}`);
    mounts.push(ro);
    expect(await startError(join(ro, "pks.db"))).toBe(
      `cannot start on the database ${join(ro, "pks.db")}: it cannot be written (a read-only file system, or no permission); serve it from a writable place or fix its permissions`,
    );
    expect(await startError(join(ro, "new.db"))).toMatch(
      new RegExp(`^cannot start on the database ${join(ro, "new.db")}: it cannot be (opened or created|written) \\(a read-only file system`),
    );
  });

  it.skipIf(!asRoot)("a disk with no space left", async () => {
    const full = join(dir, "full");
    mkdirSync(full);
    execSync(`mount -t tmpfs -o size=96k tmpfs ${full}`);
    mounts.push(full);
    expect(await startError(join(full, "pks.db"))).toBe(
      `cannot start on the database ${join(full, "pks.db")}: no space is left on its disk; free some space and start again`,
    );
  });
});
