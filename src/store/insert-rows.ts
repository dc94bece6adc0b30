import type { InValue } from "@libsql/client";
import type { Queryable } from "./db.js";

/**
 * Rows per INSERT statement. Statements are prepared once and kept (see
 * local-client.ts), so a few rows per statement cost little more than many,
 * while a statement's compiled program grows with its rows (with a table's
 * index and foreign-key upkeep, a 200-row INSERT is hundreds of kilobytes).
 */
const ROWS_PER_STATEMENT = 16;

/** Statement texts by table, columns and row count: built once, not on every statement of a cold ingest. */
const statementTexts = new Map<string, string>();

function insertText(table: string, columns: readonly string[], n: number): string {
  const key = `${table}\u0000${columns.join(",")}\u0000${n}`;
  let sql = statementTexts.get(key);
  if (sql === undefined) {
    const one = `(${columns.map(() => "?").join(", ")})`;
    sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: n }, () => one).join(", ")}`;
    statementTexts.set(key, sql);
  }
  return sql;
}

/**
 * Inserts many rows with multi-row INSERT statements: full ones of
 * ROWS_PER_STATEMENT rows, the rest in statements of 8, 4, 2 and 1 rows, so
 * a table has five statement texts at most, all kept prepared, rather than
 * one per remainder.
 */
export async function insertRows(q: Queryable, table: string, columns: readonly string[], rows: readonly InValue[][]): Promise<void> {
  let i = 0;
  while (i < rows.length) {
    const left = rows.length - i;
    const n = left >= ROWS_PER_STATEMENT ? ROWS_PER_STATEMENT : 2 ** Math.floor(Math.log2(left));
    const args: InValue[] = [];
    for (let k = i; k < i + n; k++) for (const v of rows[k]!) args.push(v);
    await q.execute(insertText(table, columns, n), args);
    i += n;
  }
}

/** `?, ?, ?` for an IN list of n values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}
