/**
 * A linear pre-scan of how deep source code nests its brackets, made
 * before the parser sees it: tree-sitter's error recovery costs the square
 * of the brackets left open (100,000 `{` kept it busy for 50 seconds).
 * Strings and comments are skipped, in each language's own syntax, so
 * brackets in text do not count; a close without an open counts nothing.
 */

/**
 * Bracket nesting allowed. Written code nests under 30 levels and bundled
 * or generated code rarely past 100; at 256, open brackets cost the parser
 * milliseconds.
 */
export const MAX_CODE_NESTING = 256;

/** Languages whose comments start with `#` rather than `//` and `/*`. */
const HASH_COMMENTS = new Set(["python", "ruby", "bash"]);
/** Languages with multi-line backtick strings (template literals, raw strings). */
const BACKTICK_STRINGS = new Set(["typescript", "tsx", "javascript", "go"]);

/** Index after the string opening at `start` with `quote`; single-line strings end at the line's end. */
function stringEnd(source: string, start: number, quote: string, multiLine: boolean): number {
  let i = start + quote.length;
  while (i < source.length && !source.startsWith(quote, i) && (multiLine || source[i] !== "\n")) {
    i += source[i] === "\\" ? 2 : 1;
  }
  return i + quote.length;
}

/** Index after a comment at `at`, or `at` itself when none starts there. */
function commentEnd(source: string, at: number, hash: boolean): number {
  const ch = source[at];
  const lineComment = hash ? ch === "#" : ch === "/" && source[at + 1] === "/";
  if (lineComment) {
    const end = source.indexOf("\n", at);
    return end < 0 ? source.length : end;
  }
  if (!hash && ch === "/" && source[at + 1] === "*") {
    const end = source.indexOf("*/", at + 2);
    return end < 0 ? source.length : end + 2;
  }
  return at;
}

/** Index after a string literal at `at`, or `at` itself when none starts there. */
function literalEnd(source: string, at: number, language: string): number {
  const ch = source[at] ?? "";
  if (ch === '"' || (ch === "'" && language !== "rust")) {
    const triple = language === "python" && source.startsWith(ch.repeat(3), at);
    return triple ? stringEnd(source, at, ch.repeat(3), true) : stringEnd(source, at, ch, false);
  }
  // A Rust `'` opens a character literal only when it closes within a few characters (else a lifetime).
  if (ch === "'") {
    const close = source.indexOf("'", at + 1);
    return close > at && close - at <= 11 && !source.slice(at, close).includes("\n") ? close + 1 : at;
  }
  if (ch === "`" && BACKTICK_STRINGS.has(language)) return stringEnd(source, at, "`", true);
  return at;
}

/**
 * Whether the brackets of `source` (in `language`, an id of
 * `languageForPath`) nest no deeper than `limit`.
 */
export function codeNestsWithin(source: string, language: string, limit: number = MAX_CODE_NESTING): boolean {
  const hash = HASH_COMMENTS.has(language);
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const skipped = Math.max(commentEnd(source, i, hash), literalEnd(source, i, language));
    if (skipped > i) {
      i = skipped;
      continue;
    }
    const ch = source[i];
    if (ch === "(" || ch === "[" || ch === "{") {
      if (++depth > limit) return false;
    } else if ((ch === ")" || ch === "]" || ch === "}") && depth > 0) depth--;
    i++;
  }
  return true;
}
