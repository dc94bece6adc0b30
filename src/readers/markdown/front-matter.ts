/**
 * Cells of YAML front matter: one "key: value" claim per top-level key.
 */
import { parseDocument } from "yaml";
import { capCellText, collapseWhitespace } from "../common/sentences.js";

/** Nesting below this depth is elided: front matter is metadata, not data. */
const MAX_DEPTH = 4;

function renderValue(value: unknown, depth: number): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "object") return String(value);
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) {
    const items = value.map((v) => renderValue(v, depth + 1)).filter((v) => v.length > 0);
    const nested = value.some((v) => v !== null && typeof v === "object");
    return items.join(nested ? "; " : ", ");
  }
  return Object.entries(value)
    .map(([k, v]) => `${k}: ${renderValue(v, depth + 1)}`)
    .join(", ");
}

/**
 * One cell per top-level key of a YAML mapping, rendered "key: value"
 * (lists joined by commas, nested mappings inline). Keys without a value are
 * left out. Malformed YAML, or YAML that is not a mapping, yields no cells:
 * the span is still kept as a faction.
 */
export function frontMatterCells(source: string): string[] {
  let data: unknown;
  try {
    const doc = parseDocument(source, { uniqueKeys: false });
    if (doc.errors.length > 0) return [];
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return [];
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return [];
  return Object.entries(data).flatMap(([key, value]) => {
    const rendered = collapseWhitespace(renderValue(value, 1));
    return rendered.length > 0 ? capCellText(`${key}: ${rendered}`) : [];
  });
}
