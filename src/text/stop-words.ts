/**
 * The English function words that carry no meaning on their own. One base
 * list for every text user: query terms, coding tasks and the entity
 * spotter each drop these, plus words of their own domain added on top
 * with {@link withStopWords}.
 */

/** Splits a whitespace-separated word list. */
function wordsOf(list: string): string[] {
  return list.trim().split(/\s+/).filter(Boolean);
}

/**
 * Pronouns, articles, auxiliaries, prepositions and conjunctions, lower
 * case: the words all users agree say nothing about a subject.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  wordsOf(`
  a about above after again against all an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers him his how i if
  in into is it its just me more most my no nor not of off on once only or other our ours out over own same she
  should so some such than that the their theirs them then there these they this those through to too under until up very
  was we were what when where which while who whom why will with would you your yours
`),
);

/** The base list and `extra` (whitespace-separated words) together: a user's own stop words. */
export function withStopWords(extra: string): ReadonlySet<string> {
  return new Set([...STOP_WORDS, ...wordsOf(extra)]);
}
