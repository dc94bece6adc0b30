/**
 * What a schema field is about, as words to look for in prose: its name
 * split as an identifier (`maxAge` → max, age), its description's content
 * words, and the question's. Words are compared by a light suffix stem so
 * `keyHash` meets "keys are hashed" and `encryption` meets "encrypted".
 * (A full Porter stemmer would conflate more, but both sides of every
 * comparison go through the same function, so consistency is what matters;
 * a few lines here avoid a dependency for it.)
 */
import { identifierParts } from "../query-terms.js";
import { STOP_WORDS } from "../../text/stop-words.js";
import { lookupTable } from "../../lookup.js";

/** Words that name the same bound: "at most 25 MB" answers `maxUploadSize`. */
const SAME_AS = lookupTable<string>({
  maximum: "max",
  most: "max",
  largest: "max",
  biggest: "max",
  highest: "max",
  upto: "max",
  minimum: "min",
  least: "min",
  smallest: "min",
  lowest: "min",
  fewest: "min",
});

/**
 * A light English stem: plural and verb endings off (`keys` → key,
 * `hashed` → hash, `expires` → expir, `encryption` → encrypt, `owner` →
 * own), and words for bounds made one (`maximum`, `most` → max).
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (SAME_AS[w]) return SAME_AS[w]!;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ations")) w = `${w.slice(0, -6)}ate`;
  else if (w.endsWith("ation")) w = `${w.slice(0, -5)}ate`;
  else if (/[ts]ions?$/.test(w) && w.length > 6) w = w.replace(/ions?$/, "");
  else if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (/(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && w.length > 3) w = w.slice(0, -1);
  else if (w.endsWith("er") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  if (/([^aeiouls])\1$/.test(w) && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** The words a field is matched by. */
export interface FieldTerms {
  /** Stems of the field's name as an identifier (stop words dropped unless nothing else is left). */
  name: string[];
  /** The field's name as written, lower case (a row naming it whole, `maxAge`, names the field). */
  whole: string;
  /** Stems of the description's content words. */
  description: string[];
  /** Stems of the question's content words. */
  query: string[];
  /** Stems of the enclosing objects' names (`cors.maxAge`: cors). */
  context: string[];
}

/** Content stems of a text: words split as identifiers, stop words dropped, each once. */
export function contentStems(text: string): string[] {
  const words = text.split(/[^\p{L}\p{N}_-]+/u).flatMap((w) => identifierParts(w));
  const content = words.filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  return [...new Set(content.map(stem))];
}

/** The terms of one field: its name, its description, the question and the enclosing names. */
export function fieldTerms(name: string, description: unknown, query: string, context: readonly string[] = []): FieldTerms {
  const parts = identifierParts(name);
  const content = parts.filter((p) => !STOP_WORDS.has(p));
  return {
    name: [...new Set((content.length > 0 ? content : parts).map(stem))],
    whole: name.toLowerCase(),
    description: typeof description === "string" ? contentStems(description) : [],
    query: contentStems(query),
    context: [...context],
  };
}
