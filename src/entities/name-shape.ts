/**
 * What a single token looks like: code identifier, acronym, brand spelling,
 * address. Shapes decide a lot before any word list is consulted.
 */
import { DOMAIN_ENDINGS, FILE_EXTENSIONS } from "./word-lists.js";

/** `parseConfig`, `syncUrl`: lower-case start, then capitalised words. */
export function isCamelCase(token: string): boolean {
  if (!/^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(token) || /^[a-z][A-Z][a-z]/.test(token)) return false;
  return /[A-Z][a-z]/.test(token) || /[a-z0-9][A-Z]$/.test(token);
}

/** `RegExpRouter`, `JavaScript`, `GitHub`, `PThreads`: capitalised with a capital inside. */
export function isPascalCase(token: string): boolean {
  return /^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/.test(token) && /^.[a-z0-9]*[A-Z]/.test(token) && /[a-z]/.test(token);
}

/** `dh_testroot`, `parse_config`, `DEB_GAIN_ROOT_CMD`. */
export function isSnakeCase(token: string): boolean {
  return /^_?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$/.test(token) && !/^[A-Z][a-z]/.test(token);
}

/** `JSR`, `DHAT`, `C++`, `GPU`: two to eight capitals, maybe digits or a `+`/`#` tail. */
export function isAcronym(token: string): boolean {
  return /^[A-Z][A-Z0-9]{1,7}$/.test(token) && /[A-Z].*[A-Z]|^[A-Z][0-9]/.test(token);
}

/** `C++`, `C#`, `F#`: a language name that ends in symbols. */
export function isSymbolSuffixed(token: string): boolean {
  return /^[A-Z][A-Za-z]*(?:\+\+|#)$/.test(token);
}

/** `iPhone`, `macOS`, `libSQL`, `eBay`: brand spellings that are not camelCase code. */
export function isBrandCase(token: string): boolean {
  return /^[a-z]{1,4}[A-Z]/.test(token) && !isCamelCase(token) && /^[A-Za-z0-9]+$/.test(token);
}

/** `GPLv3`, `S3`, `Web3`, `Python3`: letters and digits mixed in one capitalised word. */
export function isVersionedName(token: string): boolean {
  return /^[A-Z][A-Za-z]*[0-9][A-Za-z0-9]*$/.test(token) && /[A-Za-z]{2,}/.test(token);
}

/** `Node.js`, `Vue.js`: a product spelled with its language's extension. */
export function isDotJsName(token: string): boolean {
  return /^[A-Z][A-Za-z0-9]*\.js$/.test(token);
}

/** `Lambda@Edge`: a capitalised name joined by `@`. */
export function isAtJoined(token: string): boolean {
  return /^[A-Z][A-Za-z0-9]*@[A-Z][A-Za-z0-9]*$/.test(token);
}

/** `Rules-Requires-Root`, `Mercedes-Benz`: capitalised parts joined by hyphens. */
export function isCapitalHyphenated(token: string): boolean {
  return /^[A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+$/.test(token);
}

/** Scheme URLs and bare `www.` hosts. */
export function isUrl(token: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(token) || /^www\./i.test(token) || /^mailto:/i.test(token);
}

export function isEmail(token: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(token);
}

/** Numbers, versions, dates, sizes, ISBN-like runs. */
export function isNumeric(token: string): boolean {
  return /^[-+#~v]?\d[\d.,:/%x-]*(?:st|nd|rd|th|k|m|kb|mb|gb|ms|s|px|%)?$/i.test(token);
}

/** `file.md`, `src/lib.rs`, `hono.dev`: a dotted name ending in a file extension or a domain. */
export function isFileOrHost(token: string): boolean {
  const last = /\.([A-Za-z0-9]+)$/.exec(token)?.[1]?.toLowerCase();
  if (last === undefined) return false;
  return FILE_EXTENSIONS.has(last) || DOMAIN_ENDINGS.has(last);
}

/** Whether the token starts with a capital letter (of any script). */
export function isCapitalised(token: string): boolean {
  return /^\p{Lu}/u.test(token);
}

/** A shape that marks a proper name whatever its position in the sentence. */
export function hasNameShape(token: string): boolean {
  return (
    isAcronym(token) ||
    isPascalCase(token) ||
    isBrandCase(token) ||
    isVersionedName(token) ||
    isDotJsName(token) ||
    isAtJoined(token) ||
    isSymbolSuffixed(token) ||
    isCapitalHyphenated(token)
  );
}
