/**
 * Deletes from the contentless full-text tables that keep their BM25
 * statistics true. FTS5's `contentless_delete=1` delete tombstones a row
 * and drops its size row (`<table>_docsize`) but leaves the table's totals
 * record (row count and tokens per column, `<table>_data` id 1) as it was:
 * every replaced cell or declaration stayed counted. bm25() reads its
 * document count and average lengths from that record, so a re-synced
 * project ranked differently from one read once: after moving pydata/xarray
 * across three commits, `symbols_fts` counted 13,412 rows for 5,614 live
 * ones and `cells_fts` 6,712 for 5,614, and the gold file of
 * pydata__xarray-4248 fell from 7th to 10th in code_context_pack.
 */
import type { InArgs } from "@libsql/client";
import type { Queryable } from "../db.js";

/** The full-text tables; each is contentless with `contentless_delete=1`. */
export type SearchTable = "cells_fts" | "files_fts" | "symbols_fts";

/** The id of FTS5's totals ("averages") record in `<table>_data`. */
const TOTALS_ID = 1;

/** SQLite's varints (as FTS5 writes them), read from the start of `bytes` to its end. */
export function readVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    let value = 0;
    for (let n = 0; ; n++) {
      const b = bytes[at++] ?? 0;
      if (n === 8) {
        value = value * 256 + b;
        break;
      }
      value = value * 128 + (b & 0x7f);
      if ((b & 0x80) === 0 || at >= bytes.length) break;
    }
    out.push(value);
  }
  return out;
}

/** Non-negative integers under 2^53 as SQLite varints (7 bits a byte, high bit set on all but the last). */
export function writeVarints(values: readonly number[]): Uint8Array {
  const out: number[] = [];
  for (const v of values) {
    const groups: number[] = [];
    let rest = Math.max(0, Math.floor(v));
    do {
      groups.unshift(rest % 128);
      rest = Math.floor(rest / 128);
    } while (rest > 0);
    groups.forEach((g, i) => out.push(i < groups.length - 1 ? g | 0x80 : g));
  }
  return Uint8Array.from(out);
}

const bytesOf = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(v as ArrayBuffer));

/**
 * Deletes the rows of `table` whose rowids `rowids` (a SELECT of rowids,
 * with `args`) names, and takes them out of the table's totals record: their
 * sizes are read from `<table>_docsize` before the delete (no size row, no
 * search row: nothing is deleted). FTS5 holds the
 * totals of a table written in the open transaction in memory and writes
 * them back at commit; an empty savepoint makes it write them first, so the
 * corrected record is the one the next insert reads. Run it in the caller's
 * write transaction.
 */
export async function deleteSearchRows(q: Queryable, table: SearchTable, rowids: string, args: InArgs = []): Promise<void> {
  const sizes = await q.all<{ sz: unknown }>(`SELECT sz FROM ${table}_docsize WHERE id IN (${rowids})`, args);
  // Every row has a size row (the tables keep the default columnsize=1): none found, none to delete — a file's first reading.
  if (sizes.length === 0) return;
  await q.execute(`DELETE FROM ${table} WHERE rowid IN (${rowids})`, args);
  const gone = sumSizes([sizes.length], sizes);
  await q.execute("SAVEPOINT search_totals");
  await q.execute("RELEASE search_totals");
  const recorded = await readTotals(q, table);
  if (recorded) await writeTotals(q, table, recorded.map((n, i) => Math.max(0, n - (gone[i] ?? 0))));
}

/** Adds each size row's tokens per column to `totals` (whose first entry is the row count, left as it is). */
function sumSizes(totals: number[], sizes: ReadonlyArray<{ sz: unknown }>): number[] {
  for (const r of sizes) readVarints(bytesOf(r.sz)).forEach((n, i) => (totals[i + 1] = (totals[i + 1] ?? 0) + n));
  return totals;
}

/** `table`'s totals record (row count, then tokens per column), or undefined while the table has never held a row. */
async function readTotals(q: Queryable, table: SearchTable): Promise<number[] | undefined> {
  const row = await q.get<{ block: unknown }>(`SELECT block FROM ${table}_data WHERE id = ?`, [TOTALS_ID]);
  return row ? readVarints(bytesOf(row.block)) : undefined;
}

async function writeTotals(q: Queryable, table: SearchTable, totals: readonly number[]): Promise<void> {
  await q.execute(`UPDATE ${table}_data SET block = ? WHERE id = ?`, [writeVarints(totals), TOTALS_ID]);
}

/** Size rows read a page: bounds the memory of a recount over a large store. */
const RECOUNT_PAGE = 20_000;

/**
 * Rewrites `table`'s totals record from its size rows (one per live row)
 * when the two disagree: a store whose deletes ran before `deleteSearchRows`
 * kept every deleted row counted. The record's row count against the size
 * rows' count tells the two apart; only then are the sizes read, a page at
 * a time. Answers whether the record was rewritten. Run it in a write
 * transaction.
 */
export async function recountSearchTotals(q: Queryable, table: SearchTable, pageRows = RECOUNT_PAGE): Promise<boolean> {
  const recorded = await readTotals(q, table);
  if (!recorded) return false;
  const live = (await q.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}_docsize`))!.n;
  if (recorded[0] === live) return false;
  const totals = recorded.map(() => 0);
  totals[0] = live;
  const sql = `SELECT id, sz FROM ${table}_docsize WHERE id > ? ORDER BY id LIMIT ?`;
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const page = await q.all<{ id: number; sz: unknown }>(sql, [after, pageRows]);
    sumSizes(totals, page);
    if (page.length < pageRows) break;
    after = Number(page.at(-1)!.id);
  }
  await writeTotals(q, table, totals);
  return true;
}
