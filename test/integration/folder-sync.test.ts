import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ensureLocalProject } from "../../src/access/local-project.js";
import { runCli } from "../support/run-cli.js";
import { syncFolder } from "../../src/ingest/folder/folder-sync.js";
import type { SyncProgress } from "../../src/ingest/folder/folder-sync.js";
import { watchFolder } from "../../src/ingest/folder/folder-watch.js";
import type { FolderWatch } from "../../src/ingest/folder/folder-watch.js";
import { corpusVersion } from "../../src/store/access/projects.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const AWS = `aws_access_key_id = AKIA${"Q3ZT7WJ4MNXK2PLD"}\n`;
const WAIT = { timeout: 20_000, interval: 50 };

interface FileState {
  file_id: string;
  path: string;
  status: string;
}

describe("folder sync", () => {
  let w: TestWorld;
  let projectId: string;
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(w.root, path)), { recursive: true });
    writeFileSync(join(w.root, path), text);
  };
  const files = () => w.app.deps.db.all<FileState>("SELECT file_id, path, status FROM files WHERE project_id = ? ORDER BY path", [projectId]);
  const livePaths = async () => (await files()).filter((f) => f.status !== "retired").map((f) => f.path);
  const fileOf = async (path: string) => (await files()).find((f) => f.path === path);
  const cellTexts = async (path: string) =>
    (
      await w.app.deps.db.all<{ text: string }>(
        "SELECT c.text FROM cells c JOIN files f ON f.file_id = c.file_id WHERE f.project_id = ? AND f.path = ? AND c.retired_at IS NULL ORDER BY c.ordinal",
        [projectId, path],
      )
    ).map((c) => c.text);

  beforeEach(async () => {
    w = await createTestWorld();
    projectId = (await ensureLocalProject(w.app.deps.db, w.root)).projectId;
    put("README.md", "# Payments\n\nThe payments service settles card charges.\n");
    put("docs/guide.md", "# Guide\n\nRefunds go back to the original card.\n");
    put("src/app.ts", "export const answer = 42;\n");
    put("node_modules/dep/index.js", "module.exports = 1;\n");
    put("dist/bundle.js", "var a = 1;\n");
    put(".git/HEAD", "ref: refs/heads/main\n");
    put(".gitignore", "*.log\n");
    put("debug.log", "noise\n");
    put("pkg/.gitignore", "local.md\n");
    put("pkg/local.md", "# Local\n");
    put("pkg/kept.md", "# Kept\n\nThis one is synced.\n");
    put(".env", "SECRET=1\n");
    put("config/aws.ini", AWS);
  });
  afterEach(async () => w.close());

  it("reads the folder with ignore rules and default excludes, listing credential files as failed and syncing the rest", async () => {
    const phases = new Set<SyncProgress["phase"]>();
    const summary = await syncFolder(w.app, projectId, w.root, { onProgress: (p) => phases.add(p.phase) });
    const synced = [".gitignore", "README.md", "docs/guide.md", "pkg/.gitignore", "pkg/kept.md", "src/app.ts"];
    expect(await livePaths()).toEqual([".env", ...synced.slice(0, 2), "config/aws.ini", ...synced.slice(2)]);
    expect(summary).toMatchObject({ files: 8, added: 6, changed: 0, unchanged: 0, retired: 0, failed: 2, skipped: [] });
    expect(summary.refused.map((r) => r.path).sort()).toEqual([".env", "config/aws.ini"]);
    expect(summary.refused.every((r) => r.reason.startsWith("looks like a credential"))).toBe(true);
    expect(summary.factions).toBeGreaterThan(0);
    expect(summary.cells).toBeGreaterThan(0);
    expect(summary.entities).toBeGreaterThanOrEqual(0);
    expect(summary.seconds).toBeGreaterThanOrEqual(0);
    expect([...phases]).toEqual(["scan", "store", "read"]);
    const listed = await files();
    expect(listed.filter((f) => f.status !== "ready").map((f) => [f.path, f.status])).toEqual([
      [".env", "failed"],
      ["config/aws.ini", "failed"],
    ]);
    expect(await cellTexts("README.md")).toEqual(["Payments", "The payments service settles card charges."]);
  });

  it("ingests nothing on a second sync with no change", async () => {
    const first = await syncFolder(w.app, projectId, w.root);
    const version = await corpusVersion(w.app.deps.db, projectId);
    const second = await syncFolder(w.app, projectId, w.root);
    expect(second).toMatchObject({ files: 8, added: 0, changed: 0, unchanged: 6, retired: 0, failed: 2 });
    expect(second.cells).toBe(first.cells);
    expect(await corpusVersion(w.app.deps.db, projectId)).toBe(version);
  });

  it("re-reads a changed file under its file id and retires a deleted one with its cells", async () => {
    await syncFolder(w.app, projectId, w.root);
    const readme = await fileOf("README.md");
    const guide = await fileOf("docs/guide.md");
    put("README.md", "# Payments\n\nThe payments service also refunds.\n");
    unlinkSync(join(w.root, "docs", "guide.md"));
    const summary = await syncFolder(w.app, projectId, w.root);
    expect(summary).toMatchObject({ files: 7, added: 0, changed: 1, unchanged: 4, retired: 1 });
    expect((await fileOf("README.md"))?.file_id).toBe(readme?.file_id);
    expect(await cellTexts("README.md")).toEqual(["Payments", "The payments service also refunds."]);
    expect((await fileOf("docs/guide.md"))?.status).toBe("retired");
    const cells = await w.app.deps.db.all<{ retired_at: string | null }>("SELECT retired_at FROM cells WHERE file_id = ?", [guide!.file_id]);
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => c.retired_at !== null)).toBe(true);
  });

  it("retires a file that becomes excluded, and keeps the fileId when it comes back", async () => {
    await syncFolder(w.app, projectId, w.root);
    const kept = await fileOf("pkg/kept.md");
    put("pkg/.gitignore", "local.md\nkept.md\n");
    expect(await syncFolder(w.app, projectId, w.root)).toMatchObject({ retired: 1, changed: 1 });
    expect((await fileOf("pkg/kept.md"))?.status).toBe("retired");
    put("pkg/.gitignore", "local.md\n");
    expect(await syncFolder(w.app, projectId, w.root)).toMatchObject({ added: 1, changed: 1 });
    expect(await fileOf("pkg/kept.md")).toMatchObject({ file_id: kept?.file_id, status: "ready" });
  });

  it("refuses a synced file that turns credential-shaped: listed as failed with its reason, its reading retired", async () => {
    await syncFolder(w.app, projectId, w.root);
    const before = await fileOf("src/app.ts");
    put("src/app.ts", `export const answer = 42;\n// ${AWS}`);
    const summary = await syncFolder(w.app, projectId, w.root);
    expect(summary).toMatchObject({ changed: 0, retired: 0, failed: 3 });
    expect(summary.refused.map((r) => r.path).sort()).toEqual([".env", "config/aws.ini", "src/app.ts"]);
    expect(await fileOf("src/app.ts")).toEqual({ ...before, status: "failed" });
    expect(await cellTexts("src/app.ts")).toEqual([]);
    const version = await corpusVersion(w.app.deps.db, projectId);
    expect(await syncFolder(w.app, projectId, w.root)).toMatchObject({ failed: 3, retired: 0 });
    expect(await corpusVersion(w.app.deps.db, projectId)).toBe(version);
  });

  it("never retires what an ingest call put in the folder's project", async () => {
    await syncFolder(w.app, projectId, w.root);
    const { ingestBatch } = await import("../../src/ingest/accept/ingest-batch.js");
    await ingestBatch({ projectId }, { files: [{ path: "uploaded/notes.md", bytes: Buffer.from("# Notes\n\nSent over the API.\n") }] }, w.app.tools);
    w.app.worker.kick();
    await w.app.worker.whenIdle();
    const summary = await syncFolder(w.app, projectId, w.root);
    expect(summary.retired).toBe(0);
    expect((await fileOf("uploaded/notes.md"))?.status).toBe("ready");
    unlinkSync(join(w.root, "README.md"));
    expect((await syncFolder(w.app, projectId, w.root)).retired).toBe(1);
    expect((await fileOf("uploaded/notes.md"))?.status).toBe("ready");
  });

  it("only adds to a project that is not the folder's own", async () => {
    await syncFolder(w.app, w.projectId, w.root);
    unlinkSync(join(w.root, "README.md"));
    const summary = await syncFolder(w.app, w.projectId, w.root);
    expect(summary.retired).toBe(0);
    expect(summary.files).toBe(8);
  });
});

describe("folder watch", () => {
  let w: TestWorld;
  let projectId: string;
  let watch: FolderWatch | undefined;
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(w.root, path)), { recursive: true });
    writeFileSync(join(w.root, path), text);
  };
  const statusOf = async (path: string, inProject = projectId) =>
    (await w.app.deps.db.get<{ status: string }>("SELECT status FROM files WHERE project_id = ? AND path = ?", [inProject, path]))?.status;
  const liveCount = async (prefix: string) =>
    Number(
      (
        await w.app.deps.db.get<{ n: number }>(
          "SELECT count(*) AS n FROM files WHERE project_id = ? AND status = 'ready' AND path LIKE ?",
          [projectId, `${prefix}%`],
        )
      )?.n,
    );

  beforeEach(async () => {
    w = await createTestWorld();
    projectId = (await ensureLocalProject(w.app.deps.db, w.root)).projectId;
    put("README.md", "# Notes\n\nFirst version.\n");
    put("docs/a.md", "# A\n");
  });
  afterEach(async () => {
    await watch?.close();
    watch = undefined;
    await w.close();
  });

  it("syncs first, then picks up an atomic save, a new folder and a delete", async () => {
    watch = watchFolder(w.app, projectId, w.root, { debounceMs: 50 });
    const first = await watch.firstSync;
    expect(first).toMatchObject({ files: 2, added: 2 });

    // An editor's save: write a temp file, then rename it over the original.
    writeFileSync(join(w.root, ".README.md.tmp"), "# Notes\n\nSecond version.\n");
    renameSync(join(w.root, ".README.md.tmp"), join(w.root, "README.md"));
    await vi.waitFor(async () => {
      const texts = await w.app.deps.db.all<{ text: string }>(
        "SELECT c.text FROM cells c JOIN files f ON f.file_id = c.file_id WHERE f.path = 'README.md' AND f.project_id = ? AND c.retired_at IS NULL",
        [projectId],
      );
      expect(texts.map((t) => t.text)).toContain("Second version.");
    }, WAIT);

    put("notes/deep/today.md", "# Today\n");
    await vi.waitFor(async () => expect(await statusOf("notes/deep/today.md")).toBe("ready"), WAIT);
    put("notes/deep/later.md", "# Later\n");
    await vi.waitFor(async () => expect(await statusOf("notes/deep/later.md")).toBe("ready"), WAIT);

    unlinkSync(join(w.root, "docs", "a.md"));
    await vi.waitFor(async () => expect(await statusOf("docs/a.md")).toBe("retired"), WAIT);
    rmSync(join(w.root, "notes"), { recursive: true });
    await vi.waitFor(async () => expect(await liveCount("notes/")).toBe(0), WAIT);
    await watch.settled();
    expect(await statusOf(".README.md.tmp")).toBeUndefined();
  });

  it("takes a burst of a thousand files and a changed .gitignore", async () => {
    watch = watchFolder(w.app, projectId, w.root, { debounceMs: 50 });
    await watch.firstSync;
    for (let i = 0; i < 1000; i++) put(`burst/d${i % 10}/f${i}.md`, `# File ${i}\n`);
    await vi.waitFor(async () => expect(await liveCount("burst/")).toBe(1000), { timeout: 60_000, interval: 200 });
    put(".gitignore", "burst/d0/\n");
    await vi.waitFor(async () => expect(await liveCount("burst/")).toBe(900), WAIT);
    expect(await statusOf("burst/d0/f0.md")).toBe("retired");
  }, 90_000);

  it("stops on close and leaves the project alone afterwards", async () => {
    watch = watchFolder(w.app, projectId, w.root, { debounceMs: 50 });
    await watch.firstSync;
    await watch.close();
    // A second watch of the same folder, into another project, sees the same change with the
    // same debounce: once it has read the new file, the closed watch has had every chance to
    // react, and must not have.
    const control = watchFolder(w.app, w.projectId, w.root, { debounceMs: 50 });
    try {
      await control.firstSync;
      put("after.md", "# After\n");
      await vi.waitFor(async () => expect(await statusOf("after.md", w.projectId)).toBe("ready"), WAIT);
      await control.settled();
    } finally {
      await control.close();
    }
    expect(await statusOf("after.md")).toBeUndefined();
  });
});

describe("pks ingest", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "pks-ingest-cli-"));
    writeFileSync(join(root, "README.md"), "# Hello\n\nA small folder.\n");
    writeFileSync(join(root, ".env"), "SECRET=1\n");
    mkdirSync(join(root, "node_modules"));
    writeFileSync(join(root, "node_modules", "x.js"), "1;\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const pks = runCli;

  it("reads DIR into its project, waits for reading and prints the summary", async () => {
    const summary = JSON.parse(await pks("ingest", root, "--json"));
    expect(summary).toMatchObject({ root, files: 2, added: 1, retired: 0, failed: 1, entities: expect.any(Number) });
    expect(summary.projectId).toMatch(/^prj_/);
    expect(summary.cells).toBe(2);
    expect(summary.refused).toEqual([expect.objectContaining({ path: ".env" })]);
    const again = JSON.parse(await pks("ingest", root, "--json"));
    expect(again).toMatchObject({ projectId: summary.projectId, files: 2, added: 0, unchanged: 1 });
    const human = await pks("ingest", root);
    expect(human).toMatch(/^synced .+ into prj_\w+ in [\d.]+ s\n/);
    expect(human).toMatch(/files\s+2\s+\(0 new, 0 changed, 1 unchanged, 0 retired\)/);
    expect(human).toMatch(/refused\s+1\n\s+\.env: looks like a credential/);
  });

  it("fails on a folder that does not exist", async () => {
    await expect(pks("ingest", join(root, "missing"), "--json")).rejects.toThrow(/not a folder/);
  });
});
