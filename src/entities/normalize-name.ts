/**
 * The normalised form of an entity name (`entities.norm_name`): variants of
 * one name — case, camelCase or snake_case spelling, punctuation, a plural —
 * share it, so lookups by name find them all.
 */
import { memoize } from "./memo.js";

/** Words that end like plurals but are not (or whose singular keeps the `ie`). */
const KEEP_AS_IS = new Set(["series", "species", "news", "status", "canvas", "alias", "bias", "atlas", "lens", "process"]);
const IE_PLURALS = new Set(["movies", "cookies", "zombies", "pies", "ties", "lies", "rookies", "selfies", "calories", "hoodies", "genies"]);

/**
 * A word's singular by simple English rules. Deterministic rather than
 * always right: what matters is that a word and its plural map alike.
 */
export function singularWord(word: string): string {
  if (word.length < 4 || KEEP_AS_IS.has(word) || !word.endsWith("s")) return word;
  if (IE_PLURALS.has(word)) return word.slice(0, -1);
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word)) return word;
  return word.slice(0, -1);
}

/** Splits camelCase and PascalCase runs: `parseHTTPHeader` → `parse HTTP Header`. */
function splitCamel(text: string): string {
  return text.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2");
}

/**
 * Lower-cased, singular, punctuation-folded: `GreeterOptions`,
 * `greeter_options` and `Greeter options.` all become `greeter option`.
 * Letters and digits of every script are kept; everything else separates
 * words.
 */
export const normalizeName: (name: string) => string = memoize((name) => {
  const words = splitCamel(name.normalize("NFKC"))
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return words.map(singularWord).join(" ");
});
