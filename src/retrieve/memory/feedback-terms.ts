import { withStopWords } from "../../text/stop-words.js";

/** Stop words of feedback: the base list (expansion terms must say something about the subject). */
const STOPWORDS = withStopWords("");

/** How feedback is drawn: from how many of the best documents, and how many terms. */
export interface FeedbackOptions {
  documents: number;
  terms: number;
}

/**
 * Five documents, ten terms. On SciFact's train split (bench/eval-scifact.ts
 * --tune, 809 claims, nine fusion weightings each) 3 or 10 documents and 5
 * or 20 terms gave the same nDCG@10 within noise (0.7049–0.7115 against
 * 0.7079–0.7114); a flatter document weighting, `exp((score − best) / 3)`
 * or `/ 10`, less (0.6991–0.7076); the expansion terms searched without the
 * query's own, no more (0.7067–0.7110).
 */
export const DEFAULT_FEEDBACK: FeedbackOptions = { documents: 5, terms: 10 };

/** A document of the first ranking: its score and the text of its cells that ranking read. */
export interface FeedbackDocument {
  score: number;
  texts: readonly string[];
}

/**
 * Pseudo-relevance feedback in the manner of RM3, with no model: the words
 * the best-ranked documents use most, each document's share weighted by
 * `exp(score − best score)` (as a query likelihood weighs it, so the top
 * documents dominate), words of the query itself, stop words, numbers and
 * words under three letters left out. A claim that says "lowers blood
 * pressure" then also reaches the abstract that says "hypertension" and
 * "antihypertensive", when the best matches say both.
 */
export function feedbackTerms(
  documents: readonly FeedbackDocument[],
  queryTerms: readonly string[],
  n = DEFAULT_FEEDBACK.terms,
): string[] {
  if (documents.length === 0) return [];
  const own = new Set(queryTerms);
  const best = Math.max(...documents.map((d) => d.score));
  const weight = new Map<string, number>();
  for (const d of documents) {
    const words = d.texts.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length > 2 && !STOPWORDS.has(w) && !/^\d+$/.test(w));
    if (words.length === 0) continue;
    const share = Math.exp(d.score - best) / words.length;
    for (const w of words) weight.set(w, (weight.get(w) ?? 0) + share);
  }
  return [...weight]
    .filter(([w]) => !own.has(w))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([w]) => w);
}
