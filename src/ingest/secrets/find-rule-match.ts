/**
 * The matching loop shared by every content rule: global regex scan, then
 * second-stage validation of each candidate.
 */
import type { ScanText, SecretRule } from "./secret-rule.js";

const compiled = new WeakMap<SecretRule, RegExp>();

/** The rule's pattern with the `g` flag added, compiled once per rule. */
function globalPattern(rule: SecretRule): RegExp {
  let pattern = compiled.get(rule);
  if (!pattern) {
    const flags = rule.pattern.flags.includes("g") ? rule.pattern.flags : `${rule.pattern.flags}g`;
    pattern = new RegExp(rule.pattern.source, flags);
    compiled.set(rule, pattern);
  }
  return pattern;
}

/**
 * Offset of the first match of `rule` in `scan.text` that passes the rule's
 * validator and starts before `limit`, or -1. After a rejected candidate the
 * search resumes one character later, so overlapping candidates are all seen.
 */
export function findRuleMatch(rule: SecretRule, scan: ScanText, limit = Number.POSITIVE_INFINITY): number {
  const pattern = globalPattern(rule);
  const text = scan.text;
  pattern.lastIndex = 0;
  try {
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (match.index >= limit) return -1;
      if (!rule.validate || rule.validate(match, scan)) return match.index;
      pattern.lastIndex = match.index + 1;
    }
    return -1;
  } finally {
    pattern.lastIndex = 0;
  }
}
