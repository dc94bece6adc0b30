/**
 * How a record reads in the graph: the text of its cell and the name of its
 * entity. Pure.
 */
import type { ArtifactSchemaField } from "../vocabulary.js";

/** Longest cell text, in characters, as the readers cap theirs; the record itself is kept whole. */
export const RECORD_CELL_MAX = 2000;
/** Longest entity name taken from a record's value. */
const NAME_MAX = 120;

/**
 * The cell text of a record: `<schema name> record: <field>: <value>; …`,
 * fields in schema order, lists joined with ", ", absent fields left out;
 * cut to {@link RECORD_CELL_MAX} characters with "…".
 */
export function recordCellText(schemaName: string, fields: readonly ArtifactSchemaField[], data: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const field of fields) {
    if (!Object.hasOwn(data, field.name)) continue;
    const value = data[field.name];
    if (value === undefined || value === null) continue;
    parts.push(`${field.name}: ${shown(value)}`);
  }
  const text = parts.length > 0 ? `${schemaName} record: ${parts.join("; ")}` : `${schemaName} record`;
  const chars = Array.from(text);
  return chars.length > RECORD_CELL_MAX ? `${chars.slice(0, RECORD_CELL_MAX - 1).join("")}…` : text;
}

/**
 * The name of a record's entity: the first non-blank string value in schema
 * order (a form's name or title usually comes first), cut to 120
 * characters; with none, `<schema name> <recordId>`, so records never share
 * a made-up name.
 */
export function recordEntityName(
  schemaName: string,
  fields: readonly ArtifactSchemaField[],
  data: Readonly<Record<string, unknown>>,
  recordId: string,
): string {
  for (const field of fields) {
    const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    if (field.type !== "string" || typeof value !== "string") continue;
    const name = oneLine(value);
    if (name === "") continue;
    const chars = Array.from(name);
    return chars.length > NAME_MAX ? `${chars.slice(0, NAME_MAX - 1).join("")}…` : name;
  }
  return `${schemaName} ${recordId}`;
}

function shown(value: unknown): string {
  if (Array.isArray(value)) return value.map(shown).join(", ");
  if (typeof value === "string") return oneLine(value);
  return String(value);
}

/** Whitespace runs (newlines included) as one space, trimmed: a cell is one line. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
