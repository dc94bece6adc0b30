import { withStopWords } from "../text/stop-words.js";

/** The base stop words, and "am" and "itself" (which the entity spotter does not drop). */
const STOPWORDS = withStopWords("am itself");

const MAX_TERMS = 32;

/** Splits an identifier into its words: `parseConfigFile` → parse, config, file; `max_retry` → max, retry. */
export function identifierParts(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * The searchable terms of a query: words and identifiers (whole and split),
 * lower-cased, stopwords dropped unless nothing else is left.
 */
export function queryTerms(query: string): string[] {
  const raw = query.split(/[^\p{L}\p{N}_$.-]+/u).flatMap((w) => w.split(/[.-]+/)).filter(Boolean);
  const out = new Set<string>();
  for (const w of raw) {
    const parts = identifierParts(w);
    if (parts.length > 1) out.add(w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ""));
    for (const p of parts) out.add(p);
  }
  const all = [...out].filter((t) => t.length > 0);
  const content = all.filter((t) => !STOPWORDS.has(t) && (t.length > 1 || /\d/.test(t)));
  return (content.length > 0 ? content : all).slice(0, MAX_TERMS);
}

/** An FTS5 expression matching any of the terms (each quoted, so no syntax leaks in). */
export function ftsAnyOf(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
}

/** An FTS5 expression matching all of the terms (each quoted). */
export function ftsAllOf(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" AND ");
}

/** Word n-grams (1–3) of a query, lower-cased: candidate entity names. */
export function queryNgrams(query: string, maxN = 3): string[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const grams = new Set<string>();
  for (let n = 1; n <= maxN; n++) {
    for (let i = 0; i + n <= words.length; i++) {
      const g = words.slice(i, i + n);
      if (n === 1 && STOPWORDS.has(g[0]!)) continue;
      grams.add(g.join(" "));
    }
  }
  return [...grams].slice(0, 64);
}
