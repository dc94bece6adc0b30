import type { Queryable } from "../db.js";

/**
 * Ranked searches shared between the stages of one answer. A memory answer
 * ranks cells, declarations and files side by side, and for a question of
 * a few words the file ranking searches the same expression over
 * `symbols_fts` as the declaration rows, and over `files_fts` as the cell
 * ranking (a shorter list of the same order): each such search scores
 * every matching row before its `LIMIT`, the largest statements of the
 * answer on a large store. A handle made by {@link sharingSearches} runs
 * each such search once (at the widest limit the answer declares for its
 * kind) and gives every caller its own prefix: rows the same but where two
 * scores tie at a caller's cut.
 */

/** The search kinds shared. */
type SearchKind = "files" | "declarations";

/**
 * The limit a kind's searches run at, at least, on a sharing handle: the
 * widest the answer will ask, so a narrower request made first serves the
 * wider one too (a wider request than the run's runs again). A kind not
 * named runs at each request's own limit.
 */
export type SearchWidths = Partial<Record<SearchKind, number>>;

interface Shared {
  widths: SearchWidths;
  runs: Map<string, { limit: number; rows: Promise<unknown[]> }>;
}

const shared = new WeakMap<Queryable, Shared>();

/** A handle on `q` (the same reads) whose searches of one kind and expression run once while it is used. */
export function sharingSearches(q: Queryable, widths: SearchWidths): Queryable {
  const handle: Queryable = {
    execute: (sql, args) => q.execute(sql, args),
    all: (sql, args) => q.all(sql, args),
    get: (sql, args) => q.get(sql, args),
    script: (sql) => q.script(sql),
  };
  shared.set(handle, { widths, runs: new Map() });
  return handle;
}

/**
 * The first `limit` rows of a ranked search (`run` at a given limit, best
 * first): on a sharing handle, run once at the widest limit declared for
 * its kind and cut for each caller; on any other handle, run as asked.
 */
export async function sharedSearch<T>(
  q: Queryable,
  kind: SearchKind,
  key: string,
  limit: number,
  run: (limit: number) => Promise<T[]>,
): Promise<T[]> {
  const state = shared.get(q);
  if (!state) return run(limit);
  const id = `${kind}\u0000${key}`;
  const known = state.runs.get(id);
  if (known && known.limit >= limit) return ((await known.rows) as T[]).slice(0, limit);
  const width = Math.max(limit, state.widths[kind] ?? 0);
  const rows = run(width);
  state.runs.set(id, { limit: width, rows });
  return (await rows).slice(0, limit);
}
