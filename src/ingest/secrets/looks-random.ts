/**
 * Decides whether a value assigned to a secret-named key is key material
 * (random-looking) rather than a word, an identifier, an expression, a path
 * or a placeholder.
 */
import { shannonEntropy } from "./entropy.js";
import { isPlaceholder } from "./placeholder.js";

/** Shortest value the generic rules consider. */
export const MIN_RANDOM_LENGTH = 12;
/**
 * Shortest single-case, non-hex value (`ad180jjd733klru7` is a hand-typed
 * example token; generated lower-case keys are longer).
 */
const MIN_SINGLE_CASE_LENGTH = 20;

const HEX = /^[0-9a-fA-F-]{1,256}$/;
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]{0,200}(?:\.[A-Za-z_$][\w$-]{0,200}){1,20}$/;
const WORDS_ONLY = /^(?:[a-z]{1,200}|[A-Z]{1,200})(?:[-_. ](?:[a-z]{1,200}|[A-Z]{1,200})){0,20}$/;
const PATH_OR_URL = /^(?:\/|\.\.?\/|~\/|[A-Za-z]:\\)|:\/\//;

const IDENTIFIER_CHARS = /^[A-Za-z0-9_.-]{1,256}$/;
const IDENTIFIER_PIECE = /[A-Z]{2,256}(?![a-z])|[A-Z]?[a-z]{1,256}|[0-9]{1,256}|[A-Z]/g;
const WORD = /^(?:[A-Z]?[a-z]{1,256}|[A-Z]{2,256})$/;
const VOWEL = /[aeiouyAEIOUY]/;

/** Words of one letter (`IAmSensitive` reads as "I am sensitive"). */
const ONE_LETTER_WORDS = new Set(["I", "A", "a"]);

/**
 * Whether `value` reads as an identifier made of words: split at `_`, `-`,
 * `.` and camel-case humps, every piece is a word of two or more letters
 * containing a vowel, a one-letter word (`I`, `a`), or a number of at most
 * four digits (`previousRefreshToken2`, `MY_SECRET_V2`, `IAmSensitive`).
 * Random strings almost always have a one-letter or vowel-less piece.
 */
function isIdentifierLike(value: string): boolean {
  if (!IDENTIFIER_CHARS.test(value)) return false;
  const pieces = value.match(IDENTIFIER_PIECE) ?? [];
  return pieces.every((piece) =>
    piece.charCodeAt(0) <= 57 ? piece.length <= 4 : ONE_LETTER_WORDS.has(piece) || (piece.length >= 2 && WORD.test(piece) && VOWEL.test(piece)),
  );
}

/**
 * Whether `value` looks like generated key material: long enough, not a
 * placeholder, not a URL, path, dotted identifier, identifier or run of words, mixing
 * character classes (letters with digits, or balanced upper and lower case;
 * single-case values that are not hex need 20 characters),
 * and with Shannon entropy of at least three quarters of the most its length
 * and alphabet (hex or not) allow.
 */
export function looksRandom(value: string): boolean {
  const length = value.length;
  if (length < MIN_RANDOM_LENGTH) return false;
  if (isPlaceholder(value)) return false;
  if (PATH_OR_URL.test(value) || DOTTED_IDENTIFIER.test(value) || WORDS_ONLY.test(value)) return false;
  if (isIdentifierLike(value)) return false;

  let lower = 0;
  let upper = 0;
  let digit = 0;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) lower++;
    else if (c >= 65 && c <= 90) upper++;
    else if (c >= 48 && c <= 57) digit++;
  }
  const letters = lower + upper;
  const mixedCase = upper > 0 && lower > 0 && upper / letters >= 0.25 && lower / letters >= 0.25;
  if (!((letters > 0 && digit > 0) || mixedCase)) return false;

  const hex = HEX.test(value);
  const singleCase = upper === 0 || lower === 0;
  if (!hex && singleCase && length < MIN_SINGLE_CASE_LENGTH) return false;
  const alphabet = hex ? 16 : 64;
  const threshold = 0.75 * Math.log2(Math.min(length, alphabet));
  return shannonEntropy(value) >= threshold;
}
