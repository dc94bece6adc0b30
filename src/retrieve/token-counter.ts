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
const LONG_RUN_HINT = new RegExp(
  `[\\p{L}\\p{M}]{${HINT_RUN},}|[^\\s\\p{L}\\p{N}]{${HINT_RUN},}|[\\r\\n/]{${HINT_RUN},}|\\s{${HINT_RUN},}`,
  "u",
);

/** Text that looks like a special token (`<|endoftext|>`) is counted as the ordinary text it is. */
const ORDINARY = { disallowedSpecial: new Set<string>() };

const ENCODINGS = {
  o200k_base: { module: "gpt-tokenizer/encoding/o200k_base", split: O200K_TOKEN_SPLIT_REGEX },
  cl100k_base: { module: "gpt-tokenizer/encoding/cl100k_base", split: CL100K_TOKEN_SPLIT_REGEX },
} satisfies Record<TokenEncoding, { module: string; split: RegExp }>;

type EncodingModule = typeof import("gpt-tokenizer/encoding/o200k_base");

/**
 * The encoding's counter, its tables loaded on the first count. Loading
 * o200k takes a fifth of a second, which every `pks` start would pay (an
 * MCP client spawns one per session) though most never pack an answer.
 * Counting is synchronous and runs inside packing loops, so the load is a
 * synchronous `require` of the package's CommonJS build (the same release
 * as its ES modules), not an `import()`.
 */
function loadedCount(encoding: TokenEncoding): TokenCounter {
  const { countTokens } = createRequire(import.meta.url)(ENCODINGS[encoding].module) as EncodingModule;
  return (text) => countTokens(text, ORDINARY);
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
  return (text) => (text.length <= MAX_PIECE || !LONG_RUN_HINT.test(text) ? count(text) : countAroundLongPieces(text, count, split));
}
