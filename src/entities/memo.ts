/**
 * A bounded memo for pure functions of one string. Spotting a document asks
 * the same small questions of the same names many times (a name's
 * normalised form is needed to dedupe it in its cell, to group it across
 * cells and again to pick its display name), and the answers cost Unicode
 * regular expressions each time.
 */

/** Longer inputs are computed each time: names are short, and a memo of long texts would hold on to them. */
const MAX_KEY_LENGTH = 200;

/**
 * `fn` with its answers kept for up to `limit` distinct inputs; when full,
 * the memo starts again empty (cheaper than tracking use, and a document's
 * names fill it again at once).
 */
export function memoize<T>(fn: (input: string) => T, limit = 8_192): (input: string) => T {
  const answers = new Map<string, T>();
  return (input) => {
    if (input.length > MAX_KEY_LENGTH) return fn(input);
    const known = answers.get(input);
    if (known !== undefined || answers.has(input)) return known as T;
    const answer = fn(input);
    if (answers.size >= limit) answers.clear();
    answers.set(input, answer);
    return answer;
  };
}
