import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

export type TokenEncoding = "o200k_base" | "cl100k_base";

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/**
 * Byte-pair encoding is quadratic in the length of one pre-token, and only
 * an unbroken run of letters or digits makes a long one (punctuation and
 * spaces split pre-tokens already). Such runs are counted in slices, which
 * can only raise the count, so a budget checked against it stays safe;
 * everything else, compact JSON included, is counted exactly.
 */
const MAX_RUN = 256;
const LONG_RUN = new RegExp(`([\\p{L}\\p{N}]{${MAX_RUN + 1},})`, "u");

/** A counter for the tiktoken encoding, with identical counts to tiktoken's own. */
export function tokenCounter(encoding: TokenEncoding): TokenCounter {
  const count = encoding === "o200k_base" ? countO200k : countCl100k;
  return (text) => {
    if (text.length <= MAX_RUN || !LONG_RUN.test(text)) return count(text);
    let total = 0;
    for (const [i, part] of text.split(LONG_RUN).entries()) {
      if (i % 2 === 0) {
        if (part) total += count(part);
        continue;
      }
      for (let at = 0; at < part.length; at += MAX_RUN) total += count(part.slice(at, at + MAX_RUN));
    }
    return total;
  };
}
