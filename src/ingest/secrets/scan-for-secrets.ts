/**
 * Entry point of the credential-shaped file detector. Ingestion calls
 * `scanForSecrets` on every file and refuses the ones it flags, unless the
 * caller named the exact normalised path with `includeSecret`.
 */
import { decodeText } from "../../text/decode-text.js";
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

/**
 * Checks one file. Name rules first (they apply to binary files too), then,
 * for text (as `decodeText` decides it for the readers too), every content
 * rule. Returns the finding on the earliest line (ties go to the rule listed
 * first in `SECRET_RULES`), or `null` when nothing looks like a credential.
 *
 * `path` is the normalised POSIX project-relative path.
 */
export function scanForSecrets(path: string, content: Uint8Array | string): SecretFinding | null {
  const nameRule = credentialPathRule(path);
  if (nameRule !== null) return { rule: nameRule, line: 0 };

  // The readers' own decoding: what they would store is what is scanned.
  const text = decodeText(typeof content === "string" ? utf8.encode(content) : content);
  if (text === undefined || text.length === 0) return null;

  const scan = createScanText(text);
  let bestRule: string | null = null;
  let bestIndex = -1;
  let bestLineStart = Number.POSITIVE_INFINITY;
  for (const rule of SECRET_RULES) {
    const index = findRuleMatch(rule, scan, bestLineStart);
    if (index >= 0 && index < bestLineStart) {
      bestRule = rule.id;
      bestIndex = index;
      bestLineStart = index === 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
    }
  }
  return bestRule === null ? null : { rule: bestRule, line: lineAt(text, bestIndex) };
}
