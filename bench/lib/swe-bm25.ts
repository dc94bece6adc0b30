/**
 * The BM25 baselines of the SWE-bench localisation benchmark: an in-process
 * Okapi BM25 index whose documents can be replaced one by one as the
 * ingested tree moves between commits, and the tokeniser that feeds it.
 *
 * Tokens come from SQLite FTS5's `porter unicode61 remove_diacritics 2`
 * tokenizer — the one pks's own full-text indexes use — read back through
 * an `fts5vocab` instance table in a scratch in-memory libSQL database, so
 * the baselines and pks see words cut the same way (snake_case split, case
 * folded, Porter stems; camelCase kept whole; no stop words dropped). Scoring is done here rather
 * than by FTS5's `bm25()` because FTS5 fixes k1 = 1.2 and b = 0.75, while the
 * published BM25 baselines for this set come from Pyserini, whose defaults
 * are k1 = 0.9 and b = 0.4; the query's terms count as often as they occur
 * in the issue (Pyserini's bag-of-words query does the same).
 */
import { createClient } from "@libsql/client";
import type { Client } from "@libsql/client";

/** Pyserini's BM25 defaults. */
export const K1 = 0.9;
export const B = 0.4;

/** Term → count. */
export type TermCounts = Map<string, number>;

/** Words stemmed per FTS5 insert. */
const BATCH = 512;

/**
 * A word as unicode61 cuts them: a run of letters, digits and private-use
 * characters (combining marks ride along; the tokenizer folds them away).
 */
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{M}]*/gu;

/**
 * FTS5's tokenizer, as a function from texts to term counts. Texts are cut
 * into words here with unicode61's rule; each distinct word is handed to
 * FTS5 once (folded and stemmed there) and its terms remembered, so the
 * terms are FTS5's own while the bulk of the text never crosses into SQL.
 */
export class Fts5Terms {
  readonly #termsOf = new Map<string, string[]>();

  private constructor(private readonly client: Client) {}

  static async open(): Promise<Fts5Terms> {
    const client = createClient({ url: ":memory:" });
    await client.execute(`CREATE VIRTUAL TABLE words USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')`);
    await client.execute(`CREATE VIRTUAL TABLE words_seen USING fts5vocab(words, 'instance')`);
    return new Fts5Terms(client);
  }

  /** Learns the FTS5 terms of words not seen before. */
  async #learn(words: readonly string[]): Promise<void> {
    for (let at = 0; at < words.length; at += BATCH) {
      const slice = words.slice(at, at + BATCH);
      await this.client.execute("DELETE FROM words");
      await this.client.batch(
        slice.map((text, i) => ({ sql: "INSERT INTO words (rowid, text) VALUES (?, ?)", args: [i + 1, text] })),
        "write",
      );
      const rows = await this.client.execute("SELECT doc, term FROM words_seen ORDER BY doc, offset");
      const terms = slice.map((): string[] => []);
      for (const r of rows.rows) terms[Number(r.doc) - 1]!.push(String(r.term));
      slice.forEach((w, i) => this.#termsOf.set(w, terms[i]!));
    }
  }

  /** Term counts of each text, in order. */
  async counts(texts: readonly string[]): Promise<TermCounts[]> {
    const words = texts.map((text) => {
      const seen = new Map<string, number>();
      for (const m of text.matchAll(WORD)) seen.set(m[0], (seen.get(m[0]) ?? 0) + 1);
      return seen;
    });
    const unknown = new Set<string>();
    for (const seen of words) for (const w of seen.keys()) if (!this.#termsOf.has(w)) unknown.add(w);
    await this.#learn([...unknown]);
    return words.map((seen) => {
      const out: TermCounts = new Map();
      for (const [w, n] of seen) for (const t of this.#termsOf.get(w)!) out.set(t, (out.get(t) ?? 0) + n);
      return out;
    });
  }

  close(): void {
    this.client.close();
  }
}

interface Doc {
  length: number;
  terms: TermCounts;
}

/** Okapi BM25 (Lucene's idf) over documents keyed by string, updatable in place. */
export class Bm25Index {
  readonly #docs = new Map<string, Doc>();
  readonly #postings = new Map<string, Map<string, number>>();
  #totalLength = 0;

  constructor(
    private readonly k1 = K1,
    private readonly b = B,
  ) {}

  get size(): number {
    return this.#docs.size;
  }

  /** Adds a document, replacing any of the same key. */
  set(key: string, terms: TermCounts): void {
    this.delete(key);
    let length = 0;
    for (const [term, n] of terms) {
      length += n;
      let posting = this.#postings.get(term);
      if (!posting) this.#postings.set(term, (posting = new Map()));
      posting.set(key, n);
    }
    this.#docs.set(key, { length, terms });
    this.#totalLength += length;
  }

  delete(key: string): void {
    const doc = this.#docs.get(key);
    if (!doc) return;
    for (const term of doc.terms.keys()) {
      const posting = this.#postings.get(term);
      posting?.delete(key);
      if (posting?.size === 0) this.#postings.delete(term);
    }
    this.#totalLength -= doc.length;
    this.#docs.delete(key);
  }

  /** The `k` best keys for a query (ties by key, so runs repeat exactly). */
  search(query: TermCounts, k: number, accept: (key: string) => boolean = () => true): Array<{ key: string; score: number }> {
    const n = this.#docs.size;
    if (n === 0) return [];
    const avg = this.#totalLength / n;
    const scores = new Map<string, number>();
    for (const [term, weight] of query) {
      const posting = this.#postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [key, tf] of posting) {
        const length = this.#docs.get(key)!.length;
        const part = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * length) / avg));
        scores.set(key, (scores.get(key) ?? 0) + weight * part);
      }
    }
    return [...scores]
      .filter(([key]) => accept(key))
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, k)
      .map(([key, score]) => ({ key, score }));
  }
}
