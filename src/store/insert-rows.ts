import type { InValue } from "@libsql/client";
import type { Queryable } from "./db.js";

/**
 * Rows per INSERT statement. Statements are prepared once and kept (see
 * local-client.ts), so a few rows per statement cost little more than many,
 * while a statement's compiled program grows with its rows (with a table's
 * index and foreign-key upkeep, a 200-row INSERT is hundreds of kilobytes).
 */
const ROWS_PER_STATEMENT = 16;

/**
 * Inserts many rows with multi-row INSERT statements: full ones of
 * ROWS_PER_STATEMENT rows, the rest in statements of 8, 4, 2 and 1 rows, so
 * a table has five statement texts at most, all kept prepared, rather than
 * one per remainder.
 */
export async function insertRows(q: Queryable, table: string, columns: readonly string[], rows: readonly InValue[][]): Promise<void> {
  const one = `(${columns.map(() => "?").join(", ")})`;
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  let i = 0;
  while (i < rows.length) {
    const left = rows.length - i;
    const n = left >= ROWS_PER_STATEMENT ? ROWS_PER_STATEMENT : 2 ** Math.floor(Math.log2(left));
    const slice = rows.slice(i, i + n);
    await q.execute(head + Array.from({ length: n }, () => one).join(", "), slice.flat());
    i += n;
  }
}

/** `?, ?, ?` for an IN list of n values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}
