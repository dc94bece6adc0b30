/**
 * Rows a migration test writes into a store built by the migrations before
 * the one it tests: a project `prj_1`, a chunk `c1` and a file `fil_1`, in
 * raw SQL, since the store's own writers speak the newest schema.
 */
import type { Db } from "../../src/store/db.js";

export const SEED_TIME = "2026-01-01T00:00:00.000Z";

/** One project, one chunk and one `ready` file at `path`. */
export async function seedProjectFile(db: Db, file: { path: string; contentType: string; fileType: "code" | "document" }): Promise<void> {
  await db.execute("INSERT INTO projects (project_id, name, created_at) VALUES ('prj_1', 'p', ?)", [SEED_TIME]);
  await db.execute("INSERT INTO chunks (project_id, chunk_id, bytes, size, created_at) VALUES ('prj_1', 'c1', x'00', 1, ?)", [SEED_TIME]);
  await db.execute(
    `INSERT INTO files (file_id, project_id, path, content_type, file_type, file_size, chunk_id, status, created_at, updated_at)
     VALUES ('fil_1', 'prj_1', ?, ?, ?, 1, 'c1', 'ready', ?, ?)`,
    [file.path, file.contentType, file.fileType, SEED_TIME, SEED_TIME],
  );
}
