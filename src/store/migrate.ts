import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import type { Db, Queryable } from "./db.js";
import { recountSearchTotals } from "./search/search-totals.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migration files under `src/store/migrations`, ordered by their number. */
export function loadMigrations(dir = join(packageRoot(), "src", "store", "migrations")): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.replace(/\.sql$/, ""), sql: readFileSync(join(dir, f), "utf8") }));
}

/**
 * Applies every migration not yet recorded, each in its own transaction with
 * its record, so a crash leaves each one fully applied or not at all.
 * Returns the versions applied.
 */
export async function migrate(db: Db, migrations: Migration[] = loadMigrations()): Promise<number[]> {
  await db.execute(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const applied: number[] = [];
  for (const m of migrations) {
    const keysOff = KEYS_OFF.test(m.sql);
    if (keysOff) await db.execute("PRAGMA foreign_keys = OFF");
    try {
      if (await applyOne(db, m, keysOff)) applied.push(m.version);
    } finally {
      if (keysOff) await db.execute("PRAGMA foreign_keys = ON");
    }
  }
  return applied;
}

/**
 * A migration whose first line is this rebuilds a table others reference:
 * with foreign keys on, dropping the old table would delete (or null) the
 * rows that reference it. It runs with them off (a pragma that holds only
 * outside a transaction), and its transaction commits only if every
 * reference still resolves (`PRAGMA foreign_key_check`), as SQLite's own
 * procedure for such changes has it.
 */
const KEYS_OFF = /^-- foreign_keys: off\s*\n/;

/**
 * Migrations whose work SQL cannot say run this code after their script,
 * in the same transaction: 0045 rewrites each full-text table's totals
 * record from its size rows (a varint blob FTS5 keeps; see
 * `search/search-totals.ts`), for stores whose deletes left deleted rows
 * counted.
 */
const CODE_STEPS: Readonly<Record<number, (q: Queryable) => Promise<void>>> = {
  45: async (q) => {
    for (const table of ["cells_fts", "files_fts", "symbols_fts"] as const) await recountSearchTotals(q, table);
  },
};

/** Applies one migration with its record, unless it is recorded; answers whether it ran. */
async function applyOne(db: Db, m: Migration, keysOff: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await tx.get("SELECT 1 FROM schema_migrations WHERE version = ?", [m.version]);
    if (row) return false;
    await tx.script(m.sql);
    await CODE_STEPS[m.version]?.(tx);
    if (keysOff) {
      const broken = await tx.all("PRAGMA foreign_key_check");
      if (broken.length > 0) throw new Error(`migration ${m.name} left ${broken.length} rows naming rows that are gone`);
    }
    await tx.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [
      m.version,
      m.name,
      new Date().toISOString(),
    ]);
    return true;
  });
}
