import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/db.js";
import type { Db } from "../../../src/store/db.js";
import { createProject } from "../../../src/store/access/projects.js";
import {
  EMPTY_CHUNK_ID,
  chunkIdOf,
  deleteStrayChunks,
  getChunkBytes,
  packChunk,
  projectChunkBytes,
  putChunk,
  putIngestedChunk,
  releaseChunks,
} from "../../../src/store/files/chunks.js";
import { retireFilesByPath, upsertQueuedFile } from "../../../src/store/files/files.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";
import { notePurge, purgeSearchIndexes } from "../../../src/store/search/search-index.js";

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-01T01:00:00.000Z";
const T2 = "2026-01-01T02:00:00.000Z";
const bytes = (s: string) => new TextEncoder().encode(s);

describe("chunk storage", () => {
  let db: Db;
  let projectId: string;
  beforeEach(async () => {
    db = await openDatabase({ url: ":memory:" });
    await migrate(db);
    projectId = (await createProject(db, { name: "p" })).projectId;
  });
  afterEach(() => db.close());

  const ids = async () => (await db.all<{ chunk_id: string }>("SELECT chunk_id FROM chunks ORDER BY chunk_id")).map((r) => r.chunk_id);
  const fileAt = (path: string, chunkId: string) =>
    upsertQueuedFile(db, { projectId, path, contentType: "text/plain", fileType: "document", fileSize: 1, chunkId, origin: "api" }, T0);

  it("an upload past the quota is refused and not stored; stored bytes cost nothing again", async () => {
    await putChunk(db, projectId, chunkIdOf(bytes("12345")), bytes("12345"), T0, 8);
    await expect(putChunk(db, projectId, chunkIdOf(bytes("6789")), bytes("6789"), T0, 8)).rejects.toMatchObject({ code: "quota_exceeded", status: 413 });
    expect(await ids()).toEqual([chunkIdOf(bytes("12345"))]);
    await putChunk(db, projectId, chunkIdOf(bytes("12345")), bytes("12345"), T1, 1);
    expect(await db.get("SELECT uploaded_at FROM chunks")).toEqual({ uploaded_at: T1 });
    expect(await projectChunkBytes(db, projectId)).toBe(5);
  });

  it("text is stored deflated and read back whole; bytes that do not shrink, and rows stored before, are kept as they came", async () => {
    const source = bytes("export function add(a: number, b: number): number {\n  return a + b;\n}\n".repeat(200));
    const noise = new Uint8Array(randomBytes(4096));
    await putIngestedChunk(db, projectId, chunkIdOf(source), source, T0, await packChunk(source));
    await putChunk(db, projectId, chunkIdOf(noise), noise, T0);
    await db.execute("INSERT INTO chunks (project_id, chunk_id, size, bytes, created_at) VALUES (?, 'old', 3, x'616263', ?)", [projectId, T0]);
    const rows = await db.all<{ chunk_id: string; size: number; stored: number; deflated: number }>(
      "SELECT chunk_id, size, length(bytes) AS stored, deflated FROM chunks ORDER BY size",
    );
    expect(rows.map((r) => [r.chunk_id, Number(r.size), Number(r.deflated)])).toEqual([
      ["old", 3, 0],
      [chunkIdOf(noise), 4096, 0],
      [chunkIdOf(source), source.byteLength, 1],
    ]);
    expect(Number(rows[2]!.stored)).toBeLessThan(source.byteLength / 8);
    expect(await getChunkBytes(db, projectId, chunkIdOf(source))).toEqual(source);
    expect(await getChunkBytes(db, projectId, chunkIdOf(noise))).toEqual(noise);
    expect(Buffer.from((await getChunkBytes(db, projectId, "old"))!).toString()).toBe("abc");
    // The quota counts the bytes' own length, not the stored one.
    expect(await projectChunkBytes(db, projectId)).toBe(source.byteLength + 4096 + 3);
  });

  it("release deletes only unreferenced chunks not uploaded since the cutoff, and notes a purge", async () => {
    const kept = chunkIdOf(bytes("kept"));
    const fresh = chunkIdOf(bytes("fresh upload"));
    const left = chunkIdOf(bytes("left"));
    await putIngestedChunk(db, projectId, kept, bytes("kept"), T0);
    await putIngestedChunk(db, projectId, left, bytes("left"), T0);
    await putChunk(db, projectId, fresh, bytes("fresh upload"), T2);
    await fileAt("a.txt", kept);
    expect(await purgeSearchIndexes(db)).toBe(true); // the migration's own note
    expect(await releaseChunks(db, projectId, [kept, fresh, left], T1, T2)).toEqual({ chunks: 1, bytes: 4 });
    expect(await ids()).toEqual([kept, fresh].sort());
    expect(await purgeSearchIndexes(db)).toBe(true);
    expect(await purgeSearchIndexes(db)).toBe(false);
  });

  it("strays go once their last upload or ingest is older than the cutoff", async () => {
    await putChunk(db, projectId, chunkIdOf(bytes("old")), bytes("old"), T0);
    await putIngestedChunk(db, projectId, chunkIdOf(bytes("new")), bytes("new"), T2);
    expect(await deleteStrayChunks(db, T1, T2)).toEqual({ chunks: 1, bytes: 3 });
    expect(await ids()).toEqual([chunkIdOf(bytes("new"))]);
  });

  it("a retired file points at the empty chunk and says which chunk it left", async () => {
    const c = chunkIdOf(bytes("body"));
    await putIngestedChunk(db, projectId, c, bytes("body"), T0);
    const file = await fileAt("a.txt", c);
    expect(await retireFilesByPath(db, projectId, ["a.txt", "missing.txt"], T1)).toEqual([{ fileId: file.fileId, chunkId: c }]);
    expect(await db.get("SELECT status, chunk_id FROM files")).toEqual({ status: "retired", chunk_id: EMPTY_CHUNK_ID });
    expect(await retireFilesByPath(db, projectId, ["a.txt"], T2)).toEqual([]);
    await notePurge(db, T2);
    expect(await releaseChunks(db, projectId, [c], T2, T2)).toEqual({ chunks: 1, bytes: 4 });
  });
});

describe("the storage-bounds migration", () => {
  it("empties retired text and moves retired files to the empty chunk", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const all = loadMigrations();
    await migrate(db, all.filter((m) => m.version < 9));
    const projectId = (await createProject(db, { name: "p" })).projectId;
    const c = chunkIdOf(bytes("old"));
    await db.execute("INSERT INTO chunks (project_id, chunk_id, size, bytes, created_at) VALUES (?, ?, 3, x'6f6c64', ?)", [projectId, c, T0]);
    await db.execute(
      `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, created_at, updated_at)
       VALUES ('fil_1', ?, 'a.md', 'text/markdown', 'document', 3, ?, 'retired', ?, ?)`,
      [projectId, c, T0, T0],
    );
    await db.execute(
      `INSERT INTO factions (faction_id, project_id, file_id, content_hash, ordinal, faction_type, inferred_type, heading_path, text, retired_at, created_at, updated_at)
       VALUES ('fac_1', ?, 'fil_1', 'h', 0, 'paragraph', 'claim', '["Secret"]', 'old secret', ?, ?, ?)`,
      [projectId, T1, T0, T0],
    );
    await db.execute(
      `INSERT INTO cells (cell_id, project_id, file_id, faction_id, ordinal, text, retired_at, created_at, updated_at)
       VALUES ('cel_1', ?, 'fil_1', 'fac_1', 0, 'old secret', ?, ?, ?)`,
      [projectId, T1, T0, T0],
    );
    await migrate(db, all);
    expect(await db.get("SELECT chunk_id, file_size FROM files")).toEqual({ chunk_id: EMPTY_CHUNK_ID, file_size: 0 });
    expect(await db.get("SELECT text, heading_path, content_hash FROM factions")).toEqual({ text: "", heading_path: "[]", content_hash: "" });
    expect(await db.get("SELECT text FROM cells")).toEqual({ text: "" });
    expect(await deleteStrayChunks(db, T1, T2)).toEqual({ chunks: 1, bytes: 3 });
    db.close();
  });
});

describe("secure_delete", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pks-secure-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is on for local files and memory, and stays on after a transaction", async () => {
    for (const url of [`file:${join(dir, "pks.db")}`, ":memory:"]) {
      const db = await openDatabase({ url });
      await db.transaction(async (tx) => tx.execute("SELECT 1"));
      expect(Number((await db.get<{ secure_delete: number }>("PRAGMA secure_delete"))?.secure_delete)).toBe(1);
      db.close();
    }
  });
});
