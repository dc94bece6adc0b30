/**
 * Cuts a cell's text into word tokens, each with the punctuation around it
 * and whether it starts a clause (where a capital letter says nothing).
 */

/** One whitespace-separated word with its punctuation peeled off. */
export interface TextToken {
  /** The word without surrounding punctuation; may be empty for a pure symbol. */
  core: string;
  /** Punctuation before the word (`(`, `"` …). */
  lead: string;
  /** Punctuation after the word (`,`, `.`, `)` …). */
  trail: string;
  /** Whether the token starts a sentence or clause. */
  initial: boolean;
}

const LEADING = /^[([{"'“‘«<*_`¿¡]+/u;
const TRAILING = /[)\]}"'”’»>*_`,;:.!?…]+$/u;
/** Abbreviations whose dot does not end a sentence. */
const ABBREVIATIONS = new Set(["e.g", "i.e", "etc", "vs", "inc", "ltd", "co", "corp", "dr", "mr", "mrs", "ms", "no", "st", "jr", "sr", "cf", "approx", "fig", "al"]);
/** Tokens that separate clauses when they stand alone. */
const SEPARATORS = new Set(["-", "–", "—", "·", "|", "•", "/", "=>", "->", "→", "::"]);

function peel(raw: string): { core: string; lead: string; trail: string } {
  const lead = LEADING.exec(raw)?.[0] ?? "";
  let rest = raw.slice(lead.length);
  let trail = TRAILING.exec(rest)?.[0] ?? "";
  // A closing bracket whose opening is inside the word stays: `fakeroot(1)`, `request()`, `<name>`.
  const body = rest.slice(0, rest.length - trail.length);
  const closer = trail[0];
  const opener = closer === ")" ? "(" : closer === ">" ? "<" : closer === "]" ? "[" : undefined;
  if (opener !== undefined && body.includes(opener)) trail = trail.slice(1);
  rest = rest.slice(0, rest.length - trail.length);
  return { core: rest, lead, trail };
}

/** Whether the word is made of symbols only (emoji, bullets, dashes). */
function isSymbolic(core: string): boolean {
  return core.length > 0 && !/[\p{L}\p{N}]/u.test(core);
}

function endsSentence(previous: TextToken): boolean {
  if (/[!?…]/u.test(previous.trail)) return true;
  if (/[:;]/.test(previous.trail)) return true;
  if (!previous.trail.includes(".")) return false;
  return !ABBREVIATIONS.has(previous.core.toLowerCase());
}

/** The tokens of `text` in order. */
export function textTokens(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  let initial = true;
  for (const raw of text.split(/\s+/)) {
    if (raw.length === 0) continue;
    const { core, lead, trail } = peel(raw);
    if (core === "&" || core === "+") {
      // Joins names ("O'Reilly & Associates", "dpkg+debhelper") rather than clauses.
      tokens.push({ core, lead, trail, initial: false });
      continue;
    }
    if (core.length === 0 || SEPARATORS.has(core) || isSymbolic(core)) {
      tokens.push({ core: "", lead, trail: `${core}${trail}`, initial });
      initial = true;
      continue;
    }
    const token: TextToken = { core, lead, trail, initial: initial || /[("“‘¿¡]/u.test(lead) };
    tokens.push(token);
    initial = endsSentence(token);
  }
  return tokens;
}
