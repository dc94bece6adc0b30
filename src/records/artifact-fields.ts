/**
 * The fields of an artifact schema, and checking a submitted record against
 * them. Pure: no store, no clock.
 */
import { checkRequired, validateFieldList } from "../categories/schema/validate-fields.js";
import type { FieldRules } from "../categories/schema/validate-fields.js";
import { ARTIFACT_FIELD_TYPES, RESERVED_RECORD_FIELD_NAMES } from "../vocabulary.js";
import type { ArtifactFieldType, ArtifactSchemaField } from "../vocabulary.js";

/** The field rules of an artifact schema: the type-schema name rules over the record vocabulary. */
export const ARTIFACT_FIELD_RULES: FieldRules<ArtifactFieldType> = {
  types: ARTIFACT_FIELD_TYPES,
  reserved: RESERVED_RECORD_FIELD_NAMES,
};

/**
 * Validates and normalises the `fields` of an artifact schema,
 * `{name, type, required?}` each, with the same rules and messages as a
 * type's schema fields (`schema field "<name>": …`, first problem wins;
 * a type outside {@link ARTIFACT_FIELD_TYPES} carries `vocabulary`).
 * `required` defaults to false (`null` counts as absent); other keys,
 * `description` included, are ignored.
 */
export function validateArtifactFields(input: unknown): ArtifactSchemaField[] {
  return validateFieldList(input, ARTIFACT_FIELD_RULES, ({ name, type, raw }) => ({
    name,
    type,
    required: checkRequired(name, raw.required),
  }));
}

/** One way a record misses its schema, named by field. */
export interface RecordProblem {
  field: string;
  why: "required" | "not a field of the schema" | `expected ${ArtifactFieldType}`;
}

/** A record checked against its schema: the data to store, or what is wrong. */
export type RecordCheck = { ok: true; data: Record<string, unknown> } | { ok: false; problems: RecordProblem[] };

/**
 * Checks a record against its schema's fields. Keys match field names
 * exactly (case included). A required field must be present and not
 * `null`; an optional field may be absent or `null` (dropped from what is
 * stored); a present value must have the field's type; a key that is no
 * field of the schema is refused, so a typo never silently loses a value.
 * Every problem is listed, fields first in schema order, then unknown keys.
 */
export function checkRecord(fields: readonly ArtifactSchemaField[], data: Readonly<Record<string, unknown>>): RecordCheck {
  const problems: RecordProblem[] = [];
  const out: Record<string, unknown> = {};
  const known = new Set(fields.map((f) => f.name));
  for (const field of fields) {
    const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    if (value === undefined || value === null) {
      if (field.required) problems.push({ field: field.name, why: "required" });
      continue;
    }
    if (!fitsType(field.type, value)) problems.push({ field: field.name, why: `expected ${field.type}` });
    else out[field.name] = value;
  }
  for (const key of Object.keys(data)) {
    if (!known.has(key)) problems.push({ field: key, why: "not a field of the schema" });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, data: out };
}

/** Whether a JSON value has an artifact field type; numbers must be finite. */
export function fitsType(type: ArtifactFieldType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return isNumber(value);
    case "integer":
      return isNumber(value) && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "string[]":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "number[]":
      return Array.isArray(value) && value.every(isNumber);
  }
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
