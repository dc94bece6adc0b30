/**
 * Shannon entropy of a string's characters, used to tell random-looking
 * secret values from words, identifiers and placeholders.
 */

/**
 * Shannon entropy of `value` in bits per character, over its UTF-16 code
 * units. An empty string has entropy 0; a string of n distinct characters
 * has log2(n).
 */
export function shannonEntropy(value: string): number {
  const length = value.length;
  if (length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
