import type { TokenCounter } from "./token-counter.js";

/**
 * Before each key of a pack row, right after its `{"` or `,"`: the quote
 * ends a run of punctuation and the key starts a word, so the tokenizer's
 * pre-split has a boundary there and pieces cut at it count exactly what the
 * whole counts. Keys inside string values are escaped (`\"`) and never match.
 */
const KEY_START = /(?<=[{,]")(?=(?:declarations|files|symbol|symbolId|kind|fileId|filepath|lines|body|reason)":)/;

/**
 * A counter for compact JSON rows, equal to the tokenizer's count of the
 * whole text. The shared counter counts any run of 257+ non-space
 * characters in slices (an over-count, kept for safety); compact JSON rows
 * have such runs everywhere, so they are counted key by key instead.
 */
export function jsonRowCounter(count: TokenCounter): TokenCounter {
  return (text) => text.split(KEY_START).reduce((sum, piece) => sum + count(piece), 0);
}
