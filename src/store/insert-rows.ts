import type { InValue } from "@libsql/client";
import type { Queryable } from "./db.js";

/** Rows per INSERT statement: well under SQLite's bound-variable limit. */
const ROWS_PER_STATEMENT = 200;

/** Inserts many rows with multi-row INSERT statements. */
export async function insertRows(q: Queryable, table: string, columns: readonly string[], rows: readonly InValue[][]): Promise<void> {
  const one = `(${columns.map(() => "?").join(", ")})`;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const slice = rows.slice(i, i + ROWS_PER_STATEMENT);
    await q.execute(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${slice.map(() => one).join(", ")}`,
      slice.flat(),
    );
  }
}

/** `?, ?, ?` for an IN list of n values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}
