/**
 * Binary search over ascending character offsets of a text (where a word,
 * a line break or a separator occurs), for scanners that index a text once
 * and then ask about many positions in it.
 */

/** Index of the first of ascending `offsets` that is `>= target`; `offsets.length` when none is. */
export function lowerBound(offsets: readonly number[], target: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((offsets[mid] ?? 0) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last of ascending `offsets` that is `< target`, or -1 when none is. */
export function lastBefore(offsets: readonly number[], target: number): number {
  const i = lowerBound(offsets, target);
  return i > 0 ? (offsets[i - 1] ?? -1) : -1;
}
