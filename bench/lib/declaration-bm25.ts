/**
 * The code evaluation's baselines: BM25 over declarations, each one document
 * of its whole text (qualified name, header, doc, path and body), ranked by
 * BM25 alone and packed in rank order to the same budget, no cut.
 *
 * - `plain`: the text as written, and the task's terms as every other pks
 *   query takes them (`queryTerms`): BM25 as one would first build it.
 * - `enriched`: the product's own identifier splitting and task terms, so
 *   the difference to code_context_pack is the ranking and the cut alone.
 */
import type { Db } from "../../src/store/db.js";
import { symbolDocument } from "../../src/ingest/read/symbol-document.js";
import { packedDeclaration } from "../../src/retrieve/code/packed-rows.js";
import type { PackedDeclaration } from "../../src/retrieve/code/packed-rows.js";
import { taskTerms } from "../../src/retrieve/code/task-terms.js";
import { ftsAnyOf, queryTerms } from "../../src/retrieve/query-terms.js";
import { packRows } from "../../src/retrieve/pack-rows.js";
import type { TokenCounter } from "../../src/retrieve/token-counter.js";
import { declarationsByIds } from "../../src/store/code/declaration-reads.js";
import { symbolSearchSources } from "../../src/store/search/symbol-search.js";
import type { SymbolSearchSource } from "../../src/store/search/symbol-search.js";

/** Ranked declarations read: more than a 4096-token pack can hold. */
const POOL = 400;

export type BaselineKind = "plain" | "enriched";

function documentText(kind: BaselineKind, s: SymbolSearchSource): string {
  if (kind === "plain") return [s.qualifiedName, s.signature, s.doc ?? "", s.path, s.body ?? ""].join(" ");
  const d = symbolDocument(s);
  return [d.name, d.signature, d.doc, d.path, d.body].join(" ");
}

export class DeclarationBm25 {
  readonly #table: string;

  constructor(
    private readonly db: Db,
    readonly kind: BaselineKind,
  ) {
    this.#table = `bench_declarations_${kind}`;
  }

  async create(): Promise<void> {
    await this.db.execute(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${this.#table} USING fts5(text, content = '', contentless_delete = 1,
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
    await this.db.execute(`DELETE FROM ${this.#table} WHERE rowid IN (SELECT rowid FROM symbols WHERE file_id = ?)`, [fileId]);
    const sources = await symbolSearchSources(this.db, fileId);
    for (let i = 0; i < sources.length; i += 200) {
      const slice = sources.slice(i, i + 200);
      await this.db.execute(
        `INSERT INTO ${this.#table} (rowid, text) VALUES ${slice.map(() => "(?, ?)").join(", ")}`,
        slice.flatMap((s) => [s.rowid, documentText(this.kind, s)]),
      );
    }
  }

  /** The baseline's top `n` declarations for a task (the code evaluation cuts it at as many as ours packed). */
  async top(projectIds: readonly string[], task: string, n: number): Promise<PackedDeclaration[]> {
    const terms = this.kind === "plain" ? queryTerms(task) : taskTerms(task).terms;
    if (terms.length === 0 || n <= 0) return [];
    const hits = await this.db.all<{ symbol_id: string }>(
      `SELECT s.symbol_id FROM ${this.#table} JOIN symbols s ON s.rowid = ${this.#table}.rowid
       WHERE ${this.#table} MATCH ? AND s.retired_at IS NULL AND s.project_id IN (${projectIds.map(() => "?").join(", ")})
       ORDER BY bm25(${this.#table}) LIMIT ?`,
      [ftsAnyOf(terms), ...projectIds, n],
    );
    const briefs = new Map((await declarationsByIds(this.db, projectIds, hits.map((h) => h.symbol_id))).map((d) => [d.symbolId, d]));
    return hits.flatMap((h) => (briefs.has(h.symbol_id) ? [packedDeclaration(briefs.get(h.symbol_id)!)] : []));
  }

  /** The baseline's pack for a task. */
  async pack(projectIds: readonly string[], task: string, budget: number, count: TokenCounter): Promise<{ declarations: PackedDeclaration[]; used: number }> {
    const terms = this.kind === "plain" ? queryTerms(task) : taskTerms(task).terms;
    const hits =
      terms.length === 0
        ? []
        : await this.db.all<{ symbol_id: string }>(
            `SELECT s.symbol_id FROM ${this.#table} JOIN symbols s ON s.rowid = ${this.#table}.rowid
             WHERE ${this.#table} MATCH ? AND s.retired_at IS NULL AND s.project_id IN (${projectIds.map(() => "?").join(", ")})
             ORDER BY bm25(${this.#table}) LIMIT ?`,
            [ftsAnyOf(terms), ...projectIds, POOL],
          );
    const briefs = new Map((await declarationsByIds(this.db, projectIds, hits.map((h) => h.symbol_id))).map((d) => [d.symbolId, d]));
    const ranked = hits.flatMap((h) => (briefs.has(h.symbol_id) ? [packedDeclaration(briefs.get(h.symbol_id)!)] : []));
    const packed = packRows(ranked, budget, count, (rows) => JSON.stringify({ declarations: rows, files: [] }));
    return { declarations: packed.rows, used: packed.used };
  }
}
