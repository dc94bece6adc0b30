/**
 * How well a clause speaks to a field: which of the field's name words it
 * holds (and where), how much of its description and of the question. A
 * clause is evidence for a field only when it holds at least half of the
 * name's words, or at least half (two or more) of the description's: a
 * clause that merely shares the question's words is never enough, so a
 * field no row names is left out instead of filled from whatever the
 * query found.
 */
import type { Clause, Word } from "./evidence-text.js";
import type { FieldTerms } from "./field-terms.js";

export interface ClauseMatch {
  /** Share of the name's words the clause holds (0–1). */
  name: number;
  /** Share of the description's words (0–1; 0 without a description). */
  description: number;
  /** Share of the question's words (0–1). */
  query: number;
  /** The clause writes the field's name whole (`maxAge`, `origin`). */
  whole: boolean;
  /** Every name word found was only part of a longer compound (`Cross-Origin-Resource-Policy` for `origin`). */
  partial: boolean;
  /** Indices of the clause's words that hold a name word (or, with none, a description word). */
  at: number[];
  /** True when the match was carried from the first clause of the same row (a label and its definition). */
  carried: boolean;
}

/** Which stems of `stems` a word holds, and whether it holds one only as a part of a compound. */
function hits(word: Word, stems: ReadonlySet<string>): { found: string[]; partOnly: boolean } {
  if (stems.has(word.stem)) return { found: [word.stem], partOnly: false };
  const found = word.parts.filter((p) => stems.has(p));
  // A compound made only of field words (`max-age`, `maxAge`) is the field named whole, not a part of something else.
  const partOnly = found.length > 0 && word.parts.some((p) => !stems.has(p));
  return { found, partOnly };
}

/** The clause's match to a field, on its own words only. */
export function matchClause(clause: Clause, terms: FieldTerms): ClauseMatch {
  const name = new Set(terms.name);
  const description = new Set(terms.description);
  const query = new Set(terms.query);
  const seenName = new Set<string>();
  const seenDescription = new Set<string>();
  const seenQuery = new Set<string>();
  const nameAt: number[] = [];
  const descriptionAt: number[] = [];
  let whole = false;
  let fullWord = false;
  clause.words.forEach((w, i) => {
    if (w.lower === terms.whole || w.lower.replace(/[-_]/g, "") === terms.whole.replace(/[-_]/g, "")) whole = true;
    const n = hits(w, name);
    if (n.found.length > 0) {
      n.found.forEach((s) => seenName.add(s));
      nameAt.push(i);
      if (!n.partOnly) fullWord = true;
    }
    const d = hits(w, description);
    if (d.found.length > 0) {
      d.found.forEach((s) => seenDescription.add(s));
      descriptionAt.push(i);
    }
    for (const s of [w.stem, ...w.parts]) if (query.has(s)) seenQuery.add(s);
  });
  return {
    name: name.size > 0 ? seenName.size / name.size : 0,
    description: description.size > 0 ? seenDescription.size / description.size : 0,
    query: query.size > 0 ? seenQuery.size / query.size : 0,
    whole,
    partial: seenName.size > 0 && !fullWord,
    at: nameAt.length > 0 ? nameAt : descriptionAt,
    carried: false,
  };
}

/** Whether a match is evidence for the field at all (see the module note). */
export function isEvidence(m: ClauseMatch, terms: FieldTerms): boolean {
  if (m.whole) return true;
  if (m.name >= 0.5) return true;
  return terms.description.length >= 2 && m.description >= 0.5 && m.description * terms.description.length >= 2;
}

/**
 * A later clause of a row whose first clause names the field (`maxAge: how
 * long … . The middleware sends a max-age of 600 seconds …`, `origin: … .
 * It defaults to *`) speaks of the same thing: it takes the first clause's
 * match, a little weaker, when that is better than its own.
 */
export function carriedMatch(own: ClauseMatch, first: ClauseMatch | undefined, terms: FieldTerms): ClauseMatch {
  if (!first || isEvidence(own, terms) || !isEvidence(first, terms)) return own;
  return { ...first, name: first.name * 0.8, description: first.description * 0.8, query: Math.max(own.query, first.query * 0.8), at: [], carried: true };
}

/** A clause's standing as evidence for a field: name words weigh most, then the whole name, the description, the question, and retrieval rank. */
export function matchScore(m: ClauseMatch, rank: number): number {
  return 2 * m.name + (m.whole ? 0.5 : 0) + m.description + 0.5 * m.query - (m.partial ? 0.6 : 0) - Math.min(rank, 50) * 0.004;
}
