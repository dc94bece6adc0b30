/** Relevance judgements: query id → document id → grade. */
export type Qrels = Map<string, Map<string, number>>;

/** nDCG@k of one ranking (graded gains, log2 discount). */
export function ndcgAt(ranking: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  let dcg = 0;
  ranking.slice(0, k).forEach((doc, i) => {
    const g = judged.get(doc) ?? 0;
    if (g > 0) dcg += (2 ** g - 1) / Math.log2(i + 2);
  });
  const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Recall@k: share of relevant documents in the top k. */
export function recallAt(ranking: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged.entries()].filter(([, g]) => g > 0).map(([d]) => d);
  if (relevant.length === 0) return 0;
  const top = new Set(ranking.slice(0, k));
  return relevant.filter((d) => top.has(d)).length / relevant.length;
}

/** Mean of a list (0 for none). */
export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The p-th percentile (0–100) of a list, nearest rank. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Parses a BEIR qrels TSV (`query-id corpus-id score`, header line first). */
export function parseQrels(tsv: string): Qrels {
  const out: Qrels = new Map();
  for (const line of tsv.split("\n").slice(1)) {
    const [q, d, s] = line.trim().split("\t");
    if (!q || !d) continue;
    const m = out.get(q) ?? new Map<string, number>();
    m.set(d, Number(s));
    out.set(q, m);
  }
  return out;
}
