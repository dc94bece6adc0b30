/**
 * Work counters for linearity guards that do not depend on the machine's
 * speed: instead of timing a call, count what it asks of the expensive
 * primitive underneath, and compare that with the input's length.
 */

/** What `run` handed to `Intl.Segmenter.prototype.segment`: total and longest string, in UTF-16 code units. */
export function countSegmented<T>(run: () => T): { result: T; total: number; longest: number; calls: number } {
  const original = Intl.Segmenter.prototype.segment;
  let total = 0;
  let longest = 0;
  let calls = 0;
  Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
    total += input.length;
    longest = Math.max(longest, input.length);
    calls++;
    return original.call(this, input);
  };
  try {
    const result = run();
    return { result, total, longest, calls };
  } finally {
    Intl.Segmenter.prototype.segment = original;
  }
}

/**
 * How many characters `run` scanned through `String.prototype.indexOf`: for
 * each call, from its start position to the end of the match, or to the end
 * of the string when there is none.
 */
export function countIndexOfScan<T>(run: () => T): { result: T; scanned: number } {
  const original = String.prototype.indexOf;
  let scanned = 0;
  String.prototype.indexOf = function (this: string, search: string, position?: number) {
    const from = Math.max(0, Math.min(this.length, Math.trunc(position ?? 0)));
    const at = original.call(this, search, position);
    scanned += (at < 0 ? this.length : at + search.length) - from;
    return at;
  };
  try {
    const result = run();
    return { result, scanned };
  } finally {
    String.prototype.indexOf = original;
  }
}
