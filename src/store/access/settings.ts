import type { Queryable } from "../db.js";

/**
 * Reads a setting, creating it with `make()` on first use. Concurrent
 * creators agree: the first insert wins and everyone reads it back.
 */
export async function settingOrCreate(q: Queryable, key: string, make: () => string): Promise<string> {
  await q.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, make()]);
  const row = await q.get<{ value: string }>("SELECT value FROM settings WHERE key = ?", [key]);
  return row!.value;
}
