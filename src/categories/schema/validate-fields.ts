/**
 * Checking the `fields` of a schema edit (`PUT …/entities/{id}/schema`)
 * before anything is stored. Pure: the body in, the normalised field list
 * out, or the first problem as a 400.
 *
 * Every refusal of one field is `schema field "<name>": <why>`, so a caller
 * sees which field to fix and why; problems are reported in field order and
 * the first one wins, so fixing them one by one converges.
 */
import { AppError, schemaFieldError } from "../../errors.js";
import { FIELD_NAME_MAX, FIELD_TYPES, RESERVED_FIELD_NAMES, type FieldType, type SchemaField } from "../../vocabulary.js";

const FIELD_TYPE_SET: ReadonlySet<string> = new Set(FIELD_TYPES);
const RESERVED_LOWER: ReadonlySet<string> = new Set(RESERVED_FIELD_NAMES.map((n) => n.toLowerCase()));
const STARTS_WITH_LETTER = /^\p{L}/u;

/**
 * Validates and normalises the `fields` of a schema edit.
 *
 * Accepts an array of `{name, type, description?, required?}`:
 * - `name` is trimmed; it must be non-blank, at most {@link FIELD_NAME_MAX}
 *   characters (code points), start with a letter (keys starting with `_` or
 *   a digit stay free for the filled cell's own use), not be one of
 *   {@link RESERVED_FIELD_NAMES} (compared ignoring case, as names are), and
 *   be unique ignoring case — the filled cell's keys are matched to stated
 *   keys ignoring case, so "Owner" and "owner" could not be told apart.
 * - `type` (trimmed) must be one of {@link FIELD_TYPES}; the refusal carries
 *   the vocabulary as the error's top-level `vocabulary`, so a client can
 *   offer the choices without a second call.
 * - `description` defaults to "" (trimmed when given); `required` defaults
 *   to false. `null` counts as absent for both.
 * - Keys other than these four are ignored rather than refused: a client
 *   that round-trips a field it read back (or adds its own annotations)
 *   should not fail on them, and nothing unknown is kept.
 *
 * Throws `invalid_input` when `fields` is not an array, and
 * `invalid_schema_field` (via {@link schemaFieldError}) for the first bad
 * field; a field that is not an object is named by its 1-based position
 * (`"#2"`), since it has no name to show.
 */
export function validateFields(input: unknown): SchemaField[] {
  if (!Array.isArray(input)) {
    throw new AppError("invalid_input", {
      message: "invalid input: fields: must be an array of {name, type} objects",
    });
  }
  const out: SchemaField[] = [];
  const seen = new Map<string, string>();
  input.forEach((raw: unknown, index) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw schemaFieldError(`#${index + 1}`, "a field is an object with name and type");
    }
    const field = raw as Record<string, unknown>;
    const name = checkName(field.name, seen);
    const type = checkType(name, field.type);
    const description = checkDescription(name, field.description);
    const required = checkRequired(name, field.required);
    seen.set(name.toLowerCase(), name);
    out.push({ name, type, description, required });
  });
  return out;
}

/** The trimmed name, or the first thing wrong with it. */
function checkName(raw: unknown, seen: ReadonlyMap<string, string>): string {
  const name = typeof raw === "string" ? raw.trim() : "";
  if (name === "") throw schemaFieldError("", "a field needs a name");
  const chars = Array.from(name);
  if (chars.length > FIELD_NAME_MAX) {
    throw schemaFieldError(`${chars.slice(0, FIELD_NAME_MAX).join("")}…`, `longer than ${FIELD_NAME_MAX} characters`);
  }
  if (!STARTS_WITH_LETTER.test(name)) throw schemaFieldError(name, "must start with a letter");
  const lower = name.toLowerCase();
  if (RESERVED_LOWER.has(lower)) {
    throw schemaFieldError(name, `the name is reserved (${RESERVED_FIELD_NAMES.join(", ")})`);
  }
  const earlier = seen.get(lower);
  if (earlier !== undefined) {
    throw schemaFieldError(name, `duplicates "${earlier}" (names are unique ignoring case)`);
  }
  return name;
}

/** The field's type, trimmed; a missing type is shown as "" and any other non-string as its JSON. */
function checkType(name: string, raw: unknown): FieldType {
  const type = typeof raw === "string" ? raw.trim() : raw;
  if (typeof type === "string" && FIELD_TYPE_SET.has(type)) return type as FieldType;
  const shown = typeof type === "string" ? type : type === undefined || type === null ? "" : JSON.stringify(type);
  throw schemaFieldError(name, `type "${shown}" is not one of ${FIELD_TYPES.join(", ")}`, {
    vocabulary: [...FIELD_TYPES],
  });
}

function checkDescription(name: string, raw: unknown): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw !== "string") throw schemaFieldError(name, "description must be a string");
  return raw.trim();
}

function checkRequired(name: string, raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw !== "boolean") throw schemaFieldError(name, "required must be true or false");
  return raw;
}
