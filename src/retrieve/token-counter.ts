/**
 * The one token counter of retrieval: memory answers and code packs are
 * both packed to a budget counted here, and the budget a caller names is
 * the count of tiktoken's own encoder.
 */
import { createRequire } from "node:module";
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";

export type TokenEncoding = "o200k_base" | "cl100k_base";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/**
 * Byte-pair encoding takes time quadratic in the length of one pre-token
 * (the pieces the encoding's split pattern cuts a text into), so a
 * pre-token longer than this (a rule of 2,000 `=`, a run of spaces) is
 * counted in slices of this length: close, but not exact. A text with no
 * such pre-token (compact JSON, hashes and numbers included) is counted
 * exactly.
 */
const MAX_PIECE = 256;

/**
 * A pre-token much longer than {@link MAX_PIECE} holds a run of one of
 * these: letters, punctuation, the line breaks and slashes that may follow
 * punctuation, or white space. A text without such a run has no pre-token
 * over a few hundred characters, so it is counted whole, exactly.
 */
const HINT_RUN = MAX_PIECE - 8;

/**
 * Whether the text holds a run of {@link HINT_RUN} characters of one of
 * those kinds. One pass over the character codes: a Unicode-class regular
 * expression tried at every position took a third as long as counting the
 * tokens themselves. A character past ASCII may be a letter, punctuation or
 * white space, so it extends all three runs: the test may say yes where
 * there is no such run (the exact path is then taken for nothing), never
 * no where there is one.
 */
function hasLongRun(text: string): boolean {
  let letters = 0;
  let marks = 0;
  let spaces = 0;
  let breaks = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      letters++;
      marks++;
      spaces++;
      breaks = 0;
    } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      letters++;
      marks = spaces = breaks = 0;
    } else if (c >= 48 && c <= 57) {
      letters = marks = spaces = breaks = 0;
    } else if (c === 32 || (c >= 9 && c <= 13)) {
      spaces++;
      breaks = c === 10 || c === 13 ? breaks + 1 : 0;
      letters = marks = 0;
    } else {
      marks++;
      breaks = c === 47 ? breaks + 1 : 0;
      letters = spaces = 0;
    }
    if (letters >= HINT_RUN || marks >= HINT_RUN || spaces >= HINT_RUN || breaks >= HINT_RUN) return true;
  }
  return false;
}

/** Text that looks like a special token (`<|endoftext|>`) is counted as the ordinary text it is. */
const ORDINARY = { disallowedSpecial: new Set<string>() };

/**
 * o200k's split pattern with each Unicode class cut down to its ASCII
 * members (`\p{L}` to `A-Za-z`, `\p{N}` to `0-9`; ASCII holds no mark,
 * title-case, modifier or other letter; `\s` is the same set): on ASCII
 * text it cuts exactly where the pattern does, in a fifth of the time
 * (V8 tests a character against the Unicode property tables of the full
 * pattern, which was over half of counting an answer's tokens).
 */
const O200K_ASCII_SPLIT = new RegExp(
  String.raw`[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  "gu",
);

const ENCODINGS = {
  o200k_base: { module: "gpt-tokenizer/encoding/o200k_base", split: O200K_TOKEN_SPLIT_REGEX, ascii: O200K_ASCII_SPLIT },
  cl100k_base: { module: "gpt-tokenizer/encoding/cl100k_base", split: CL100K_TOKEN_SPLIT_REGEX, ascii: undefined },
} satisfies Record<TokenEncoding, { module: string; split: RegExp; ascii: RegExp | undefined }>;

const NON_ASCII = /[^\x00-\x7f]/g;

/** Where the next character past ASCII is, from `from` on (Infinity when none). */
function nextNonAscii(text: string, from: number): number {
  NON_ASCII.lastIndex = from;
  return NON_ASCII.test(text) ? NON_ASCII.lastIndex - 1 : Infinity;
}

/**
 * How far past a piece's end the split pattern may look before it settles
 * on the piece: the character after it (greedy runs and `(?!\S)` stop
 * there) and a contraction's three (`'ll`).
 */
const LOOK_PAST = 4;

/** An encoding's split pattern: the ASCII one (global) when it has one, and both as sticky patterns cutting one piece at a time. */
interface Splitter {
  ascii: RegExp | undefined;
  fast: RegExp | undefined;
  full: RegExp;
}

function splitter(split: RegExp, ascii: RegExp | undefined): Splitter {
  return { ascii, fast: ascii && new RegExp(ascii.source, "uy"), full: new RegExp(split.source, "uy") };
}

/**
 * The pre-tokens of a text, in order, cut as `split` cuts them. ASCII
 * text is cut by the ASCII pattern alone. Otherwise each piece is cut by
 * the ASCII pattern where neither it nor the few characters the pattern
 * looked at past it ({@link LOOK_PAST}) leave ASCII: the two patterns test
 * ASCII characters alike, so they then match the same piece; a piece near
 * another character is cut by the full pattern.
 */
function preTokens(text: string, { ascii, fast, full }: Splitter, visit: (piece: string) => void): void {
  let next = ascii ? nextNonAscii(text, 0) : 0;
  if (ascii && next === Infinity) {
    for (const piece of text.match(ascii) ?? []) visit(piece);
    return;
  }
  for (let at = 0; at < text.length; ) {
    let piece: string | undefined;
    if (fast && next > at + LOOK_PAST) {
      fast.lastIndex = at;
      piece = fast.exec(text)?.[0];
      if (piece !== undefined && at + piece.length + LOOK_PAST > next) piece = undefined;
    }
    if (piece === undefined) {
      full.lastIndex = at;
      piece = full.exec(text)![0];
    }
    visit(piece);
    at += piece.length;
    if (fast && next < at) next = nextNonAscii(text, at);
  }
}

type EncodingModule = typeof import("gpt-tokenizer/encoding/o200k_base");

/** Pre-tokens longer than this are counted each time, not remembered (words, names and punctuation runs are shorter). */
const MEMO_PIECE = 48;
/** Pre-tokens remembered at most (a few MB); past it the memo starts over. */
const MEMO_SIZE = 200_000;

/**
 * The encoding's counter, its tables loaded on the first count. Loading
 * o200k takes a fifth of a second, which every `pks` start would pay (an
 * MCP client spawns one per session) though most never pack an answer.
 * Counting is synchronous and runs inside packing loops, so the load is a
 * synchronous `require` of the package's CommonJS build (the same release
 * as its ES modules), not an `import()`.
 *
 * The count is the sum over the text's pre-tokens (the pieces the split
 * pattern cuts it into) of each piece's own count — which is how the
 * library counts too — with each short piece's count remembered: answers
 * repeat the same words, names, ids and JSON punctuation, and the
 * library's own per-piece work (a look-up among 200,000 ranks, its LRU
 * merge cache reordered on every hit) was most of packing an answer's
 * time; with the memo counting takes half as long. A piece counted alone
 * is the same piece: the pattern has no look-behind, and its one
 * look-ahead (`\s+(?!\S)`) can only match the whole of a white-space
 * piece at the end of the text.
 */
function loadedCount(encoding: TokenEncoding): TokenCounter {
  const { countTokens } = createRequire(import.meta.url)(ENCODINGS[encoding].module) as EncodingModule;
  const { split, ascii } = ENCODINGS[encoding];
  const cut = splitter(split, ascii);
  const memo = new Map<string, number>();
  const piece = (p: string): number => {
    if (p.length > MEMO_PIECE) return countTokens(p, ORDINARY);
    let n = memo.get(p);
    if (n === undefined) {
      if (memo.size >= MEMO_SIZE) memo.clear();
      n = countTokens(p, ORDINARY);
      memo.set(p, n);
    }
    return n;
  };
  return (text) => {
    let total = 0;
    preTokens(text, cut, (p) => (total += piece(p)));
    return total;
  };
}

/**
 * Counts the text between long pre-tokens whole and each long pre-token in
 * slices. The split pattern has no look-behind, so text cut where it cuts
 * splits as it did within the whole, except that white space at the end of
 * a cut may join up (`" \t"` before `"==="` is two pre-tokens, alone it is
 * one): those last white-space pre-tokens are counted one by one.
 */
function countAroundLongPieces(text: string, count: TokenCounter, split: RegExp): number {
  let total = 0;
  let from = 0;
  let spaces: string[] = [];
  for (const match of text.matchAll(split)) {
    const piece = match[0];
    if (piece.length <= MAX_PIECE) {
      if (/^\s+$/.test(piece)) spaces.push(piece);
      else spaces = [];
      continue;
    }
    const trailing = spaces.reduce((n, p) => n + p.length, 0);
    if (match.index - trailing > from) total += count(text.slice(from, match.index - trailing));
    for (const space of spaces) total += count(space);
    for (let at = 0; at < piece.length; at += MAX_PIECE) total += count(piece.slice(at, at + MAX_PIECE));
    from = match.index + piece.length;
    spaces = [];
  }
  return from < text.length ? total + count(text.slice(from)) : total;
}

/**
 * A counter for the tiktoken encoding: identical to tiktoken's count
 * (`encode_ordinary`) for any text without a pre-token longer than 256
 * characters, serialized answer rows included.
 */
export function tokenCounter(encoding: TokenEncoding): TokenCounter {
  const { split } = ENCODINGS[encoding];
  let loaded: TokenCounter | undefined;
  const count: TokenCounter = (text) => (loaded ??= loadedCount(encoding))(text);
  return (text) => (text.length <= MAX_PIECE || !hasLongRun(text) ? count(text) : countAroundLongPieces(text, count, split));
}
