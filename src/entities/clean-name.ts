/**
 * The spelling of a mention as it will be shown, and whether what is left
 * can name anything at all.
 */
import { normalizeName } from "./normalize-name.js";
import { isEmail, isNumeric, isUrl } from "./name-shape.js";
import { GENERIC_CAPITALS, GENERIC_NAMES, STOPWORDS } from "./word-lists.js";

const EDGE_PUNCTUATION = /^[\s"'“”‘’`«»()[\]{}<>*_,;:.!?…·|•–—-]+|[\s"'“”‘’`«»()[\]{}<>*_,;:.!?…·|•–—-]+$/gu;
const LEADING_ARTICLE = /^(?:the|a|an)\s+/i;
const POSSESSIVE = /(?<=\S)['’]s$|(?<=s)['’]$/u;

/**
 * Trims what surrounds a name: quotes, brackets, punctuation, a possessive
 * `'s` and a leading article. `"The Hono's,"` → `Hono`. Symbol tails that
 * belong to names (`C++`, `C#`) are kept.
 */
export function cleanName(raw: string): string {
  let name = raw.replace(/\s+/g, " ").trim();
  for (let previous = ""; previous !== name; ) {
    previous = name;
    const tail = /(?:\+\+|#)$/.test(name) ? (/(?:\+\+|#)$/.exec(name)?.[0] ?? "") : "";
    const option = /^--?(?=[a-z])/.exec(name)?.[0] ?? "";
    name = option + name.slice(option.length, name.length - tail.length).replace(EDGE_PUNCTUATION, "") + tail;
    name = name.replace(POSSESSIVE, "").replace(LEADING_ARTICLE, "").trim();
  }
  // "OMFs", "APIs": the plural of an acronym names the acronym.
  return name.replace(/(?<=\b[A-Z]{2,})s$/, "");
}

function isFunctionWord(word: string): boolean {
  return STOPWORDS.has(word.toLowerCase());
}

/** Whether a word or phrase is too general to name anything ("Usage", "Quick Start", "MUST"). */
export function isGenericName(name: string): boolean {
  const lower = name.toLowerCase();
  if (GENERIC_NAMES.has(lower) || GENERIC_NAMES.has(normalizeName(name))) return true;
  return /^[A-Za-z0-9]+$/.test(name) && /[A-Z]/.test(name) && (GENERIC_CAPITALS.has(lower) || GENERIC_CAPITALS.has(lower.replace(/s$/, "")));
}

/**
 * Whether a cleaned name can name an entity: not a function word, a generic
 * word, a number, an address, a single character or a sentence.
 */
export function isPlausibleName(name: string): boolean {
  if (name.length < 2 || name.length > 80) return false;
  if (!/\p{L}/u.test(name) || isNumeric(name) || isUrl(name) || isEmail(name)) return false;
  if (isGenericName(name)) return false;
  const words = name.split(" ");
  if (words.length > 6) return false;
  if (words.every(isFunctionWord)) return false;
  const first = words[0] ?? "";
  const last = words.at(-1) ?? "";
  if (words.length > 1 && (isFunctionWord(first) || isFunctionWord(last))) return false;
  return normalizeName(name).length > 1 || /^[A-Z][A-Za-z]*(?:\+\+|#)$/.test(name);
}
