/**
 * Values a declaration's header writes for a name: a default parameter
 * (`headerName = 'X-Request-Id'`), an object literal's member (`{ maxAge:
 * 600 }`) or a constant (`const DEFAULT_MAX_AGE = 600`). A header is code,
 * so it is evidence for a field only where it names that field exactly —
 * the whole identifier, case, `_` and `-` aside, optionally after
 * `default` — and writes a literal there: `space: 2` says nothing about
 * `maxAge`, and `keyHash: string` (a type, not a value) nothing about a key
 * hash. Prose, when it speaks to the field, outranks this.
 */
import { declarationParts } from "./evidence-text.js";
import type { EvidenceRow } from "./evidence-text.js";

export interface CodeValue {
  cellId: string;
  rank: number;
  value: string | number | boolean;
}

/** An identifier as compared with a field's name: lower case, without `_`, `-` or a leading `default`. */
export function codeKey(identifier: string): string {
  return identifier.toLowerCase().replace(/[-_]/g, "").replace(/^default(?=.)/, "");
}

const LITERAL = String.raw`(-?\d+(?:\.\d+)?(?:e\d+)?|'[^'\n]{0,200}'|"[^"\n]{0,200}"|\x60[^\x60$\n]{0,200}\x60|true|false)`;
const ASSIGNED = new RegExp(String.raw`([A-Za-z_$][\w$]*)\??\s*(?:=(?!=|>)|:(?!:))\s*` + LITERAL + String.raw`(?=\s*[,;)}\]]|\s*$|\s+as\b)`, "g");

/** Every `name = literal` / `name: literal` a row's declaration header writes, by code key; none for prose rows. */
export function codeValues(rows: readonly EvidenceRow[]): Map<string, CodeValue[]> {
  const out = new Map<string, CodeValue[]>();
  rows.forEach((row, rank) => {
    const header = declarationParts(row)?.header;
    if (!header) return;
    for (const m of header.matchAll(ASSIGNED)) {
      const literal = m[2]!;
      const value = /^['"\x60]/.test(literal) ? literal.slice(1, -1) : literal === "true" ? true : literal === "false" ? false : Number(literal);
      if (typeof value === "number" && !Number.isFinite(value)) continue;
      const key = codeKey(m[1]!);
      out.set(key, [...(out.get(key) ?? []), { cellId: row.cellId, rank, value }]);
    }
  });
  return out;
}
