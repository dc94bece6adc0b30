/**
 * Checking the `fields` of a schema before anything is stored: a type's
 * schema edit (`PUT …/entities/{id}/schema`) and an artifact schema
 * (`POST /v1/artifact-schemas`) share one set of field-name rules and differ
 * only in their type vocabulary, their reserved names and the keys a field
 * may carry besides name and type. Pure: the body in, the normalised field
 * list out, or the first problem as a 400.
 *
 * Every refusal of one field is `schema field "<name>": <why>`, so a caller
 * sees which field to fix and why; problems are reported in field order and
 * the first one wins, so fixing them one by one converges.
 */
import { AppError, schemaFieldError } from "../../errors.js";
import { FIELD_NAME_MAX, FIELD_TYPES, PROTOTYPE_NAMES, RESERVED_FIELD_NAMES, SCHEMA_FIELDS_MAX, type SchemaField } from "../../vocabulary.js";

const STARTS_WITH_LETTER = /^\p{L}/u;
const PROTOTYPE_LOWER: ReadonlySet<string> = new Set(PROTOTYPE_NAMES.map((n) => n.toLowerCase()));

/**
 * What sets one kind of schema apart: the types a field may have and the
 * names it may not take (the keys the stored shape already uses).
 */
export interface FieldRules<T extends string> {
  readonly types: readonly T[];
  readonly reserved: readonly string[];
}

/** A field whose name and type passed, with the raw object for the kind's own keys. */
export interface NamedField<T extends string> {
  readonly name: string;
  readonly type: T;
  readonly raw: Readonly<Record<string, unknown>>;
}

/** The rules of a type's schema (typed knowledge). */
export const TYPE_FIELD_RULES: FieldRules<SchemaField["type"]> = { types: FIELD_TYPES, reserved: RESERVED_FIELD_NAMES };

/**
 * The one implementation of the field rules, for any kind of schema.
 *
 * Accepts an array of at most {@link SCHEMA_FIELDS_MAX} objects with at
 * least `{name, type}` (a schema is shown and filled whole, so its size is
 * bounded like any other stored list):
 * - `name` is trimmed; it must be non-blank, at most {@link FIELD_NAME_MAX}
 *   characters (code points), start with a letter (keys starting with `_` or
 *   a digit stay free for the stored shape's own use), not be one of
 *   `rules.reserved` nor of {@link PROTOTYPE_NAMES} (compared ignoring
 *   case, as names are), and be unique
 *   ignoring case — values are matched to stated keys ignoring case, so
 *   "Owner" and "owner" could not be told apart.
 * - `type` (trimmed) must be one of `rules.types`; the refusal carries the
 *   vocabulary as the error's top-level `vocabulary`, so a client can offer
 *   the choices without a second call.
 * - `finish` checks and keeps the kind's other keys, in field order (so the
 *   first problem still wins); keys it does not read are ignored rather than
 *   refused: a client that round-trips a field it read back (or adds its own
 *   annotations) should not fail on them, and nothing unknown is kept.
 *
 * Throws `invalid_input` when `fields` is not an array, and
 * `invalid_schema_field` (via {@link schemaFieldError}) for the first bad
 * field; a field that is not an object is named by its 1-based position
 * (`"#2"`), since it has no name to show.
 */
export function validateFieldList<T extends string, F>(
  input: unknown,
  rules: FieldRules<T>,
  finish: (field: NamedField<T>) => F,
): F[] {
  if (!Array.isArray(input)) {
    throw new AppError("invalid_input", {
      message: "invalid input: fields: must be an array of {name, type} objects",
    });
  }
  if (input.length > SCHEMA_FIELDS_MAX) {
    throw new AppError("invalid_input", { message: `invalid input: fields: at most ${SCHEMA_FIELDS_MAX} fields` });
  }
  const types: ReadonlySet<string> = new Set(rules.types);
  const reserved: ReadonlySet<string> = new Set(rules.reserved.map((n) => n.toLowerCase()));
  const out: F[] = [];
  const seen = new Map<string, string>();
  input.forEach((raw: unknown, index) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw schemaFieldError(`#${index + 1}`, "a field is an object with name and type");
    }
    const field = raw as Record<string, unknown>;
    const name = checkName(field.name, seen, reserved, rules.reserved);
    const type = checkType(name, field.type, types, rules.types);
    const done = finish({ name, type, raw: field });
    seen.set(name.toLowerCase(), name);
    out.push(done);
  });
  return out;
}

/**
 * Validates and normalises the `fields` of a type's schema edit:
 * `{name, type, description?, required?}` under {@link TYPE_FIELD_RULES}.
 * `description` defaults to "" (trimmed when given); `required` defaults
 * to false. `null` counts as absent for both.
 */
export function validateFields(input: unknown): SchemaField[] {
  return validateFieldList(input, TYPE_FIELD_RULES, ({ name, type, raw }) => ({
    name,
    type,
    description: checkDescription(name, raw.description),
    required: checkRequired(name, raw.required),
  }));
}

/** The trimmed name, or the first thing wrong with it. */
function checkName(raw: unknown, seen: ReadonlyMap<string, string>, reservedLower: ReadonlySet<string>, reserved: readonly string[]): string {
  const name = typeof raw === "string" ? raw.trim() : "";
  if (name === "") throw schemaFieldError("", "a field needs a name");
  const chars = Array.from(name);
  if (chars.length > FIELD_NAME_MAX) {
    throw schemaFieldError(`${chars.slice(0, FIELD_NAME_MAX).join("")}…`, `longer than ${FIELD_NAME_MAX} characters`);
  }
  if (!STARTS_WITH_LETTER.test(name)) throw schemaFieldError(name, "must start with a letter");
  const lower = name.toLowerCase();
  if (PROTOTYPE_LOWER.has(lower)) throw schemaFieldError(name, `the name is reserved (${PROTOTYPE_NAMES.join(", ")})`);
  if (reservedLower.has(lower)) {
    throw schemaFieldError(name, `the name is reserved (${reserved.join(", ")})`);
  }
  const earlier = seen.get(lower);
  if (earlier !== undefined) {
    throw schemaFieldError(name, `duplicates "${earlier}" (names are unique ignoring case)`);
  }
  return name;
}

/** The field's type, trimmed; a missing type is shown as "" and any other non-string as its JSON. */
function checkType<T extends string>(name: string, raw: unknown, types: ReadonlySet<string>, vocabulary: readonly T[]): T {
  const type = typeof raw === "string" ? raw.trim() : raw;
  if (typeof type === "string" && types.has(type)) return type as T;
  const shown = typeof type === "string" ? type : type === undefined || type === null ? "" : JSON.stringify(type);
  throw schemaFieldError(name, `type "${shown}" is not one of ${vocabulary.join(", ")}`, {
    vocabulary: [...vocabulary],
  });
}

function checkDescription(name: string, raw: unknown): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw !== "string") throw schemaFieldError(name, "description must be a string");
  return raw.trim();
}

/** A field's `required`: false when absent or `null`, else it must be a boolean. */
export function checkRequired(name: string, raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw !== "boolean") throw schemaFieldError(name, "required must be true or false");
  return raw;
}
