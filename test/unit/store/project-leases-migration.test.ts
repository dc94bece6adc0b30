import { describe, expect, it } from "vitest";
import { createProject } from "../../../src/store/access/projects.js";
import { openDatabase } from "../../../src/store/db.js";
import { getLease } from "../../../src/store/files/leases.js";
import { loadMigrations, migrate } from "../../../src/store/migrate.js";

const NOW = "2026-01-01T00:00:00.000Z";

describe("every project has its ingestion lease", () => {
  it("older projects get theirs from the migration, a kept one is left as it was, and a new project comes with one", async () => {
    const db = await openDatabase({ url: ":memory:" });
    const all = loadMigrations();
    await migrate(db, all.filter((m) => m.version < 24));
    for (const id of ["prj_a", "prj_b"]) await db.execute("INSERT INTO projects (project_id, name, created_at) VALUES (?, 'p', ?)", [id, NOW]);
    await db.execute("INSERT INTO leases (lease_id, project_id, last_intent, created_at, updated_at) VALUES ('lse_kept', 'prj_b', 'sync', ?, ?)", [NOW, NOW]);
    await migrate(db, all);
    expect(await getLease(db, "prj_a")).toEqual({ leaseId: expect.stringMatching(/^lse_[0-9A-F]{22}$/), projectId: "prj_a", lastIntent: null, createdAt: NOW, updatedAt: NOW });
    expect(await getLease(db, "prj_b")).toMatchObject({ leaseId: "lse_kept", lastIntent: "sync" });
    const made = await createProject(db, { name: "new" });
    expect(await getLease(db, made.projectId)).toMatchObject({ leaseId: expect.stringMatching(/^lse_[0-9A-Za-z]{22}$/), createdAt: made.createdAt });
    db.close();
  });
});
