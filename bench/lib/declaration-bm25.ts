/**
 * The code evaluation's baseline: plain BM25 over declarations, each one
 * document of its whole text (names, header, doc, path and body, with the
 * same identifier splitting and the same task terms as the product), ranked
 * by BM25 alone and packed in rank order to the same budget, no cut.
 */
import type { Db } from "../../src/store/db.js";
import { jsonRowCounter } from "../../src/context/json-tokens.js";
import { symbolDocument } from "../../src/context/symbol-document.js";
import { packedDeclaration } from "../../src/context/packed-rows.js";
import type { PackedDeclaration } from "../../src/context/packed-rows.js";
import { taskTerms } from "../../src/context/task-terms.js";
import { ftsAnyOf } from "../../src/retrieve/query-terms.js";
import { packRows } from "../../src/retrieve/pack-rows.js";
import type { TokenCounter } from "../../src/retrieve/token-counter.js";
import { declarationsByIds } from "../../src/store/declaration-reads.js";
import { symbolSearchSources } from "../../src/store/symbol-search.js";

/** Ranked declarations read: more than a 4096-token pack can hold. */
const POOL = 400;

export class DeclarationBm25 {
  constructor(private readonly db: Db) {}

  async create(): Promise<void> {
    await this.db.execute(
      `CREATE VIRTUAL TABLE IF NOT EXISTS bench_declarations USING fts5(text, content = '', contentless_delete = 1,
       tokenize = 'porter unicode61 remove_diacritics 2')`,
    );
  }

  /** Re-indexes the declarations of these project paths (files that left lose theirs). */
  async update(projectId: string, paths: readonly string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += 500) {
      const slice = paths.slice(i, i + 500);
      const files = await this.db.all<{ file_id: string }>(
        `SELECT file_id FROM files WHERE project_id = ? AND path IN (${slice.map(() => "?").join(", ")})`,
        [projectId, ...slice],
      );
      for (const f of files) await this.#indexFile(f.file_id);
    }
  }

  async #indexFile(fileId: string): Promise<void> {
    await this.db.execute("DELETE FROM bench_declarations WHERE rowid IN (SELECT rowid FROM symbols WHERE file_id = ?)", [fileId]);
    const rows = (await symbolSearchSources(this.db, fileId)).map(symbolDocument);
    for (let i = 0; i < rows.length; i += 200) {
      const slice = rows.slice(i, i + 200);
      await this.db.execute(
        `INSERT INTO bench_declarations (rowid, text) VALUES ${slice.map(() => "(?, ?)").join(", ")}`,
        slice.flatMap((r) => [r.rowid, [r.name, r.signature, r.doc, r.path, r.body].join(" ")]),
      );
    }
  }

  /** The baseline's pack for a task. */
  async pack(projectIds: readonly string[], task: string, budget: number, count: TokenCounter): Promise<{ declarations: PackedDeclaration[]; used: number }> {
    const terms = taskTerms(task).terms;
    if (terms.length === 0) return { declarations: [], used: count(JSON.stringify({ declarations: [], files: [] })) };
    const hits = await this.db.all<{ symbol_id: string }>(
      `SELECT s.symbol_id FROM bench_declarations JOIN symbols s ON s.rowid = bench_declarations.rowid
       WHERE bench_declarations MATCH ? AND s.retired_at IS NULL AND s.project_id IN (${projectIds.map(() => "?").join(", ")})
       ORDER BY bm25(bench_declarations) LIMIT ?`,
      [ftsAnyOf(terms), ...projectIds, POOL],
    );
    const briefs = new Map((await declarationsByIds(this.db, projectIds, hits.map((h) => h.symbol_id))).map((d) => [d.symbolId, d]));
    const ranked = hits.flatMap((h) => (briefs.has(h.symbol_id) ? [packedDeclaration(briefs.get(h.symbol_id)!)] : []));
    const packed = packRows(ranked, budget, jsonRowCounter(count), (rows) => JSON.stringify({ declarations: rows, files: [] }));
    return { declarations: packed.rows, used: packed.used };
  }
}
