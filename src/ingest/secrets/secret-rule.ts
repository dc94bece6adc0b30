/**
 * The shape of a content rule, and the per-scan view of the text that rule
 * validators read. Rules are plain data; the scanner owns the matching loop.
 */

/**
 * The text being scanned, with per-scan memoisation so that a validator
 * needing a whole-text index (where the `curl` words are, where YAML
 * documents start) builds it once per scan instead of once per candidate.
 */
export interface ScanText {
  /** The decoded file content. */
  readonly text: string;
  /** The file is a test or a test fixture, where credential-shaped values are examples unless they look generated. */
  readonly exampleFile: boolean;
  /** Runs `compute(text)` the first time `key` is asked for in this scan. */
  memo<T>(key: string, compute: (text: string) => T): T;
}

/** One content rule. */
export interface SecretRule {
  /** Stable, path-independent id reported in findings, e.g. `aws-access-key-id`. */
  readonly id: string;
  /** One line saying what the rule catches. */
  readonly description: string;
  /**
   * Candidate matcher, without the `g` flag (the scanner adds it). Every
   * quantifier is bounded so that no input makes it backtrack for long, and
   * the pattern starts with a literal (or a cheap lookbehind and a literal)
   * so that the regex engine skips ahead as fast as a substring search;
   * that is why rules carry no separate keyword prefilter.
   */
  readonly pattern: RegExp;
  /**
   * Second stage on a candidate: `true` when it is a credential rather than a
   * placeholder, an expression or a near miss. Must cost time proportional to
   * the candidate (or use `scan.memo` for whole-text indexes).
   */
  readonly validate?: (match: RegExpExecArray, scan: ScanText) => boolean;
}

/** A fresh `ScanText` over `text` with an empty memo. */
export function createScanText(text: string, exampleFile = false): ScanText {
  const cache = new Map<string, unknown>();
  return {
    text,
    exampleFile,
    memo<T>(key: string, compute: (text: string) => T): T {
      if (cache.has(key)) return cache.get(key) as T;
      const value = compute(text);
      cache.set(key, value);
      return value;
    },
  };
}
