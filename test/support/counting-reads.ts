import type { Queryable } from "../../src/store/db.js";

/** A handle on `q` whose reads (`all`, `get`) are counted: how many statements a search sent. */
export function countingReads(q: Queryable): { q: Queryable; reads: () => number } {
  let n = 0;
  const counted: Queryable = {
    execute: (sql, args) => q.execute(sql, args),
    all: (sql, args) => (n++, q.all(sql, args)),
    get: (sql, args) => (n++, q.get(sql, args)),
    script: (sql) => q.script(sql),
  };
  return { q: counted, reads: () => n };
}
