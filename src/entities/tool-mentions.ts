/**
 * Lower-case program names, which only their company gives away: a version
 * after them ("dpkg 1.19.0"), an option ("dpkg-deb --build"), or a word
 * such as "command" ("the debhelper commands").
 */
import { isGenericName } from "./clean-name.js";
import type { EntityMention } from "./entity-mention.js";
import type { TextToken } from "./text-tokens.js";
import type { WordTags } from "./word-tags.js";
import { isKnownWord, tagsOf } from "./word-tags.js";
import { STOPWORDS } from "./word-lists.js";

const TOOL_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const VERSION = /^v?\d+(?:\.\d+)+[a-z0-9~+-]*$/;
const OPTION = /^-{1,2}[a-z]/;
/** Words that follow a program's name; "package" and "program" follow too many ordinary words to count. */
const TOOL_CUES = new Set(["command", "commands", "tool", "tools", "utility", "utilities", "daemon", "crate", "crates", "executable", "cli"]);

/** The word itself, without a parenthesised prefix such as `(src:)`. */
function bareWord(core: string): string {
  return core.includes(")") && !core.includes("(") ? core.slice(core.lastIndexOf(")") + 1) : core;
}

function isToolName(word: string): boolean {
  if (word.length < 3 || !TOOL_NAME.test(word) || STOPWORDS.has(word) || isGenericName(word)) return false;
  return !word.split("-").every(isKnownWord);
}

function announcesTool(token: TextToken, next: TextToken | undefined): boolean {
  if (next === undefined || /[.!?;:]/.test(token.trail)) return false;
  // Only a program-like spelling before an option: "write output --log-file" names no program.
  if (OPTION.test(next.core)) return /[-\d]/.test(bareWord(token.core));
  if (token.trail.length > 0) return false;
  return VERSION.test(next.core) || (next.lead.length === 0 && TOOL_CUES.has(next.core.toLowerCase()));
}

/** Words that describe or are everyday nouns rather than names ("serverless package", "generation tool"). */
function isDescriptive(word: string, tags: WordTags): boolean {
  const own = tagsOf(tags, word);
  if (own.has("Adjective") || own.has("Verb") || own.has("Adverb")) return true;
  if (/(?:ed|ing|tion|sion|ment|ness|ity)$/.test(word.split("-").at(-1) ?? "")) return true;
  return /^[a-z]+$/.test(word) && /(?:less|ful|able|ible|ive|ous|ance|ence|ism|ship|hood|ogy|ency|ancy|ure|age)$/.test(word);
}

/** Program names among `tokens`, as products. */
export function toolMentions(tokens: readonly TextToken[], tags: WordTags): EntityMention[] {
  const found: EntityMention[] = [];
  tokens.forEach((token, i) => {
    const word = bareWord(token.core);
    // The cheap tests first: the tagger runs only for a program-like word that something announces.
    if (!announcesTool(token, tokens[i + 1]) || !isToolName(word) || isDescriptive(word, tags)) return;
    found.push({ name: word, kind: "product", source: "nlp" });
  });
  return found;
}
