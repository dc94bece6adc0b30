/**
 * The file-level baseline of the code evaluation: BM25 over whole files
 * (path and full text), as SWE-bench localisation papers run it, ranked by
 * BM25 alone. Its own contentless FTS5 table beside the store; the task is
 * queried with the terms every other pks query takes (`queryTerms`).
 */
import type { Db } from "../../src/store/db.js";
import { ftsAnyOf, queryTerms } from "../../src/retrieve/query-terms.js";

/** Files ranked: far more than Acc@5 needs. */
const POOL = 50;

export class FileBm25 {
  #rowids = new Map<string, number>();
  #paths = new Map<number, string>();
  #next = 1;

  constructor(private readonly db: Db) {}

  async create(): Promise<void> {
    await this.db.execute(
      `CREATE VIRTUAL TABLE IF NOT EXISTS bench_files USING fts5(path, text, content = '', contentless_delete = 1,
       tokenize = 'porter unicode61 remove_diacritics 2')`,
    );
  }

  /** Indexes changed files anew and drops removed ones. */
  async update(texts: ReadonlyMap<string, string>, removed: readonly string[]): Promise<void> {
    for (const path of [...texts.keys(), ...removed]) {
      const rowid = this.#rowids.get(path);
      if (rowid === undefined) continue;
      await this.db.execute("DELETE FROM bench_files WHERE rowid = ?", [rowid]);
      this.#rowids.delete(path);
      this.#paths.delete(rowid);
    }
    for (const [path, text] of texts) {
      const rowid = this.#next++;
      await this.db.execute("INSERT INTO bench_files (rowid, path, text) VALUES (?, ?, ?)", [rowid, path.replace(/[/.\\_-]+/g, " "), text]);
      this.#rowids.set(path, rowid);
      this.#paths.set(rowid, path);
    }
  }

  /** Paths by BM25 relevance to the task, best first. */
  async rank(task: string): Promise<string[]> {
    const terms = queryTerms(task);
    if (terms.length === 0) return [];
    const rows = await this.db.all<{ rowid: number }>(
      "SELECT rowid FROM bench_files WHERE bench_files MATCH ? ORDER BY bm25(bench_files) LIMIT ?",
      [ftsAnyOf(terms), POOL],
    );
    return rows.flatMap((r) => (this.#paths.has(Number(r.rowid)) ? [this.#paths.get(Number(r.rowid))!] : []));
  }
}
