/**
 * Recognises the obviously-not-a-secret values that documentation, tests and
 * templates put where a credential would go: `AKIAXXXXXXXXXXXXXXXX`,
 * `ghp_your_token_here`, `sk_live_1234567890abcdef...`, `********`.
 */

/**
 * Lower-case fragments that almost never occur in a generated secret (a
 * random 36-character base62 token holds one of the four-letter ones about
 * once in ten thousand) but often in stand-ins for one. `example` also covers the AWS documentation pair
 * (`AKIAIOSFODNN7EXAMPLE`, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), which
 * is published and therefore not a credential.
 */
const PLACEHOLDER_FRAGMENTS: readonly string[] = [
  "example",
  "xxxx",
  "placeholder",
  "your",
  "dummy",
  "sample",
  "redacted",
  "changeme",
  "replace",
  "insert",
  "<",
  ">",
  "...",
  "\u2026",
  "****",
];

/** A run of one character this long does not happen in a random token. */
const MAX_REPEAT_RUN = 6;
/** Nor does a run of consecutive code points (`abcdef`, `123456`, `fedcba`). */
const MAX_SEQUENCE_RUN = 6;

/**
 * Whether `value` (the variable part of a token, without its fixed prefix)
 * looks like a stand-in rather than generated key material: it contains a
 * placeholder word, or is degenerate (see `isDegenerate`).
 */
export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  for (const fragment of PLACEHOLDER_FRAGMENTS) {
    if (lower.includes(fragment)) return true;
  }
  return isDegenerate(value);
}

/**
 * Whether `value` is too regular to be random: a run of six of one
 * character, a run of six consecutive code points (`abcdef`, `654321`), or
 * fewer distinct characters than a fifth of its length (at least three).
 * Unlike `isPlaceholder`, never rejects a value for the words it contains.
 */
export function isDegenerate(value: string): boolean {
  let repeat = 1;
  let ascending = 1;
  let descending = 1;
  const distinct = new Set<number>();
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    distinct.add(code);
    if (i === 0) continue;
    const previous = value.charCodeAt(i - 1);
    repeat = code === previous ? repeat + 1 : 1;
    ascending = code === previous + 1 ? ascending + 1 : 1;
    descending = code === previous - 1 ? descending + 1 : 1;
    if (repeat >= MAX_REPEAT_RUN || ascending >= MAX_SEQUENCE_RUN || descending >= MAX_SEQUENCE_RUN) {
      return true;
    }
  }
  return distinct.size < Math.max(3, Math.ceil(value.length / 5));
}
