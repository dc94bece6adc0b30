/**
 * Entry point of the credential-shaped file detector. Ingestion calls
 * `scanForSecrets` on every file and refuses the ones it flags, unless the
 * caller named the exact normalised path with `includeSecret`; reading runs
 * the same rules on what the readers made of the file
 * (find-secret-in-reading.ts, secret-verdict.ts).
 */
import { decodeText, textButForNul } from "../../text/decode-text.js";
import { countBelow, decodeReferences } from "./decode-references.js";
import { isTestFixturePath } from "./example-context.js";
import { findRuleMatch } from "./find-rule-match.js";
import { credentialPathRule } from "./secret-paths.js";
import { createScanText } from "./secret-rule.js";
import { SECRET_RULES } from "./secret-rules.js";

export { credentialPathRule } from "./secret-paths.js";

/** Why a file was refused. Never carries any of the secret's text. */
export interface SecretFinding {
  /** Path-independent rule id, e.g. `aws-access-key-id` or `env-file`. */
  rule: string;
  /** 1-based line where the match starts; 0 for name rules. */
  line: number;
}

const utf8 = new TextEncoder();

/** 1-based line number of offset `index` in `text`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let nl = text.indexOf("\n"); nl >= 0 && nl < index; nl = text.indexOf("\n", nl + 1)) line++;
  return line;
}

/** A match: the index of its rule in `SECRET_RULES` (ties go to the lower) and its offset in the text. */
interface Match {
  rule: number;
  index: number;
}

/**
 * The match on the earliest line of `text` (ties go to the rule listed
 * first in `SECRET_RULES`), or null. Each rule stops searching at the start
 * of the best line so far.
 */
function earliestMatch(text: string, exampleFile: boolean): Match | null {
  const scan = createScanText(text, exampleFile);
  let best: Match | null = null;
  let bestLineStart = Number.POSITIVE_INFINITY;
  for (let rule = 0; rule < SECRET_RULES.length; rule++) {
    const index = findRuleMatch(SECRET_RULES[rule]!, scan, bestLineStart);
    if (index >= 0 && index < bestLineStart) {
      best = { rule, index };
      bestLineStart = index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
    }
  }
  return best;
}

/** Whether finding `a` (line, rule place) comes before `b`: earlier line, or same line and earlier rule. */
function comesFirst(a: { line: number; rule: number }, b: { line: number; rule: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.rule <= b.rule);
}

/**
 * Runs every content rule on `text` as it stands and, when it holds HTML
 * character references or JSON/JavaScript escapes, on `text` with them
 * decoded too (`ghp&#95;…` and `ghp\u005f…` are `ghp_…` to whoever renders
 * or parses them). Both are needed: a reader may store either form, and
 * decoding can also break a match (a token followed by `\u0041`). Returns
 * the finding on the earliest line of `text` (a match in the decoded text is
 * reported on its line in `text`), or null. Linear in the text: one decoding
 * pass and at most two scans.
 */
export function scanDecodedText(text: string, exampleFile = false): SecretFinding | null {
  if (text.length === 0) return null;
  const raw = earliestMatch(text, exampleFile);
  const asIs = raw && { rule: raw.rule, line: lineAt(text, raw.index) };
  const decoded = decodeReferences(text);
  const hit = decoded && earliestMatch(decoded.text, exampleFile);
  const fromDecoded = hit && { rule: hit.rule, line: lineAt(decoded.text, hit.index) - countBelow(decoded.addedBreaks, hit.index) };
  const first = asIs && fromDecoded ? (comesFirst(asIs, fromDecoded) ? asIs : fromDecoded) : (asIs ?? fromDecoded);
  return first ? { rule: SECRET_RULES[first.rule]!.id, line: first.line } : null;
}

/**
 * Checks one file's bytes. Name rules first (they apply to binary files
 * too), then, for text (as `decodeText` decides it for the readers too,
 * or text but for NUL bytes, see `textButForNul`), every content rule on the text and on its decoded form
 * ({@link scanDecodedText}). Returns the finding on the earliest line, or
 * `null` when nothing looks like a credential.
 *
 * `path` is the normalised POSIX project-relative path.
 */
export function scanForSecrets(path: string, content: Uint8Array | string): SecretFinding | null {
  const nameRule = credentialPathRule(path);
  if (nameRule !== null) return { rule: nameRule, line: 0 };

  // The readers' own decoding: what they would store is what is scanned.
  const bytes = typeof content === "string" ? utf8.encode(content) : content;
  // Text but for NUL bytes is scanned as text: its bytes are kept even though no reader reads it.
  const text = decodeText(bytes) ?? textButForNul(bytes);
  return text === undefined ? null : scanDecodedText(text, isTestFixturePath(path));
}
