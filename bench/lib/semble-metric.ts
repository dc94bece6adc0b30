/**
 * The semble code-search benchmark's metric, as its data's README states
 * it: NDCG@10 over files, every label (relevant ∪ secondary) of grade 1, a
 * label matching a ranked file when the paths are equal or one ends with
 * `/` + the other; each label takes the rank of the first top-10 file it
 * matches, and two labels matching one file count once.
 */

/** True when a label names a ranked file (equal, or one path a suffix of the other at a folder boundary). */
export function pathMatches(label: string, ranked: string): boolean {
  return label === ranked || label.endsWith(`/${ranked}`) || ranked.endsWith(`/${label}`);
}

/** NDCG@10 of a file ranking against a query's labels. */
export function sembleNdcg(ranking: readonly string[], labels: readonly string[], k = 10): number {
  const unique = [...new Set(labels)];
  if (unique.length === 0) return 0;
  const top = ranking.slice(0, k);
  const hitRanks = new Set<number>();
  for (const label of unique) {
    const at = top.findIndex((f) => pathMatches(label, f));
    if (at >= 0) hitRanks.add(at);
  }
  let dcg = 0;
  for (const at of hitRanks) dcg += 1 / Math.log2(at + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, unique.length); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Distinct paths in first-appearance order. */
export function firstAppearance(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())];
}
