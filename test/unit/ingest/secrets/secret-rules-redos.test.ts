import { describe, expect, it } from "vitest";
import { findRuleMatch } from "../../../../src/ingest/secrets/find-rule-match.js";
import { scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import { createScanText } from "../../../../src/ingest/secrets/secret-rule.js";
import { SECRET_RULES } from "../../../../src/ingest/secrets/secret-rules.js";
import { buildAdversarialInput, pathologicalStrings } from "../../../fixtures/secrets/adversarial-input.js";

/** Largest repetition bound a rule may use. */
const MAX_BOUND = 16384;

interface Quantifier {
  min: number;
  max: number;
  at: number;
}

/**
 * The quantifiers of a RegExp source (outside character classes and
 * escapes). `max` is Infinity for `*`, `+` and `{n,}`.
 */
function quantifiers(source: string): Quantifier[] {
  const found: Quantifier[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") {
      inClass = true;
      continue;
    }
    if (c === "(" && source[i + 1] === "?") {
      // group modifiers: (?:, (?=, (?!, (?<=, (?<!, (?<name> — skip the `?` so it is not read as a quantifier
      i++;
      continue;
    }
    if (c === "*") found.push({ min: 0, max: Infinity, at: i });
    else if (c === "+") found.push({ min: 1, max: Infinity, at: i });
    else if (c === "?") found.push({ min: 0, max: 1, at: i });
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (m) {
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
        found.push({ min, max, at: i });
        i += m[0].length - 1;
      }
    }
  }
  return found;
}

describe("rule patterns", () => {
  it("have unique ids", () => {
    const ids = SECRET_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("compile as JavaScript RegExps without the global or sticky flag", () => {
    for (const rule of SECRET_RULES) {
      expect(rule.pattern, rule.id).toBeInstanceOf(RegExp);
      expect(rule.pattern.flags, rule.id).not.toMatch(/[gy]/);
    }
  });

  it("use bounded quantifiers only", () => {
    for (const rule of SECRET_RULES) {
      const list = quantifiers(rule.pattern.source);
      expect(list.length, rule.id).toBeGreaterThan(0);
      for (const q of list) {
        expect(q.max, `${rule.id} at ${q.at}`).toBeLessThanOrEqual(MAX_BOUND);
      }
    }
  });

  it("the quantifier scanner itself sees unbounded ones", () => {
    expect(quantifiers("a+").map((q) => q.max)).toEqual([Infinity]);
    expect(quantifiers("(?:ab)*c{2,}").map((q) => q.max)).toEqual([Infinity, Infinity]);
    expect(quantifiers("[a+*]{1,3}\\+(?!x)").map((q) => q.max)).toEqual([3]);
  });
});

describe("adversarial input", () => {
  it("every rule returns on every 1 MiB pathological string, finding nothing", () => {
    const strings = pathologicalStrings(1024 * 1024);
    for (const text of strings) {
      const scan = createScanText(text);
      for (const rule of SECRET_RULES) {
        expect(findRuleMatch(rule, scan), `${rule.id} on ${JSON.stringify(text.slice(0, 40))}`).toBe(-1);
      }
    }
  });

  it("a 24 MiB adversarial file scans to completion with no finding", () => {
    const bytes = Buffer.from(buildAdversarialInput(24 * 1024 * 1024));
    expect(bytes.length).toBe(24 * 1024 * 1024);
    expect(scanForSecrets("adversarial.txt", bytes)).toBeNull();
  });
});
