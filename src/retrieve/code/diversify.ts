/** One candidate of a pack: its score and the part of it each task term earned. */
export interface Candidate<T> {
  item: T;
  file: string;
  score: number;
  /** Term → the part of the evidence that term earned (its BM25 part); a candidate without terms never decays by term. */
  terms: ReadonlyMap<string, number>;
}

/** How fast repeats lose worth: each earlier pick matching a term (or in the file) multiplies by these. */
export interface Decay {
  term: number;
  file: number;
  /**
   * How much of a candidate's score falls with its terms: at least the share
   * its term parts make of it, up to all of it (1: what it owes to its file
   * and the walk came from those terms too).
   */
  whole: number;
}

/**
 * Orders candidates by marginal worth, greedily: a term's part counts
 * `decay.term` times less for each pick already holding that term (and
 * with them up to the whole score, see `Decay.whole`), and the candidate
 * `decay.file` times less for each pick already from its file. So one common word matching many names ("constructor", "get") buys
 * a few rows and then yields to the other terms and files, while a row that
 * matches several terms keeps its worth. Each row keeps its own `score`
 * (what a relevance cut judges) and says its `worth` when picked (which
 * only falls as picks accumulate). Lazy greedy: a candidate's stale worth
 * bounds its fresh one.
 */
export function diversify<T>(candidates: readonly Candidate<T>[], decay: Decay, limit: number): Array<{ item: T; score: number; worth: number }> {
  const picksOfTerm = new Map<string, number>();
  const picksOfFile = new Map<string, number>();
  const worth = (c: Candidate<T>) => {
    let termPart = 0;
    let decayed = 0;
    for (const [t, v] of c.terms) {
      termPart += v;
      decayed += v * decay.term ** (picksOfTerm.get(t) ?? 0);
    }
    const share = termPart > 0 ? decayed / termPart : 1;
    const falling = c.score > 0 ? Math.max(Math.min(1, termPart / c.score), decay.whole) : 1;
    return c.score * (1 - falling + falling * share) * decay.file ** (picksOfFile.get(c.file) ?? 0);
  };
  const heap = candidates.map((c, i) => ({ c, i, bound: c.score })).sort((a, b) => b.bound - a.bound || a.i - b.i);
  const out: Array<{ item: T; score: number; worth: number }> = [];
  while (heap.length > 0 && out.length < limit) {
    const head = heap.shift()!;
    const fresh = worth(head.c);
    const next = heap[0];
    if (next && fresh < next.bound - 1e-12) {
      head.bound = fresh;
      let lo = 0;
      let hi = heap.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const m = heap[mid]!;
        if (m.bound > fresh || (m.bound === fresh && m.i < head.i)) lo = mid + 1;
        else hi = mid;
      }
      heap.splice(lo, 0, head);
      continue;
    }
    out.push({ item: head.c.item, score: head.c.score, worth: fresh });
    for (const [t, v] of head.c.terms) if (v > 0) picksOfTerm.set(t, (picksOfTerm.get(t) ?? 0) + 1);
    picksOfFile.set(head.c.file, (picksOfFile.get(head.c.file) ?? 0) + 1);
  }
  return out;
}
