/**
 * Second stage of the private-key rules: a `BEGIN ... PRIVATE KEY` header is
 * only a key when key material follows it. Parsers, docs and tests often
 * mention the header alone.
 */

/** How far after the header the body may start (room for PEM/PGP headers). */
const BODY_WINDOW = 600;
/** A first body line at least this long is taken as key material. */
const MIN_BODY_RUN = 40;
/** Distinct characters required in the first 40 of the body (rules out `AAAA...`). */
const MIN_DISTINCT = 10;
/** RFC 1421 / OpenPGP armour header lines allowed before the body. */
const MAX_ARMOUR_HEADERS = 4;

const ARMOUR_HEADER = /^[A-Za-z][A-Za-z0-9-]{0,30}: /;

function isBase64Char(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47
  );
}

/** Whether offset `i` starts a line break: a real one, or a `\n`/`\r` escape inside a string literal. */
function breakLength(text: string, i: number): number {
  const c = text[i];
  if (c === "\n" || c === "\r") return 1;
  if (c === "\\" && (text[i + 1] === "n" || text[i + 1] === "r")) return 2;
  return 0;
}

/**
 * Whether key material follows a private-key header ending at `from`: after
 * separators (whitespace, `\n` escapes, quotes, `+` and `,` of a split string
 * literal) and at most four armour header lines (`Proc-Type:`, `DEK-Info:`,
 * `Version:`, `Comment:`), the first body line holds at least 40 base64
 * characters (with at least 10 distinct ones among the first 40), all within
 * 600 characters of the header.
 */
export function hasPrivateKeyBody(text: string, from: number): boolean {
  const end = Math.min(text.length, from + BODY_WINDOW);
  let i = from;
  let headers = 0;
  while (i < end) {
    const c = text[i];
    const brk = breakLength(text, i);
    if (brk > 0) {
      i += brk;
      continue;
    }
    if (c === " " || c === "\t" || c === '"' || c === "'" || c === "`" || c === "+" || c === ",") {
      i++;
      continue;
    }
    if (headers < MAX_ARMOUR_HEADERS && ARMOUR_HEADER.test(text.slice(i, i + 34))) {
      headers++;
      while (i < end && breakLength(text, i) === 0) i++;
      continue;
    }
    break;
  }
  const start = i;
  while (i < end && i - start < MIN_BODY_RUN && isBase64Char(text.charCodeAt(i))) i++;
  return i - start >= MIN_BODY_RUN && new Set(text.slice(start, i)).size >= MIN_DISTINCT;
}
