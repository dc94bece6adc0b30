import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/errors.js";
import { checkRecord, fitsType, validateArtifactFields } from "../../../src/records/artifact-fields.js";
import { ARTIFACT_FIELD_TYPES, RESERVED_FIELD_NAMES } from "../../../src/vocabulary.js";
import type { ArtifactSchemaField } from "../../../src/vocabulary.js";

function refusal(input: unknown): AppError {
  try {
    validateArtifactFields(input);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("validateArtifactFields accepted the input");
}

const FIELDS: ArtifactSchemaField[] = [
  { name: "name", type: "string", required: true },
  { name: "age", type: "integer", required: false },
  { name: "ratio", type: "number", required: false },
  { name: "ok", type: "boolean", required: false },
  { name: "tags", type: "string[]", required: false },
  { name: "scores", type: "number[]", required: false },
];

describe("validateArtifactFields", () => {
  it("normalises {name, type, required?}: trimmed, required false by default, other keys dropped", () => {
    expect(
      validateArtifactFields([
        { name: " email ", type: " string ", required: true, description: "kept nowhere" },
        { name: "votes", type: "number[]", required: null },
      ]),
    ).toEqual([
      { name: "email", type: "string", required: true },
      { name: "votes", type: "number[]", required: false },
    ]);
  });

  it("takes every type of the record vocabulary and none of the type-schema-only ones", () => {
    const all = ARTIFACT_FIELD_TYPES.map((type, i) => ({ name: `f${i}`, type }));
    expect(validateArtifactFields(all).map((f) => f.type)).toEqual([...ARTIFACT_FIELD_TYPES]);
    const err = refusal([{ name: "due", type: "date" }]);
    expect(err.message).toBe('schema field "due": type "date" is not one of string, number, integer, boolean, string[], number[]');
    expect(err.extra).toEqual({ vocabulary: [...ARTIFACT_FIELD_TYPES] });
  });

  it("reserves the type-schema names plus the record's own keys and the honeypot, ignoring case", () => {
    const list = [...RESERVED_FIELD_NAMES, "recordId", "schemaId", "createdAt", "data", "honeypot"].join(", ");
    for (const name of ["cellId", "RECORDID", "schemaId", "createdAt", "Data", "honeypot"]) {
      expect(refusal([{ name, type: "string" }]).message).toBe(`schema field "${name}": the name is reserved (${list})`);
    }
  });

  it("shares the name rules and their messages with type schemas", () => {
    expect(refusal([{ type: "string" }]).message).toBe('schema field "": a field needs a name');
    expect(refusal([{ name: "9lives", type: "string" }]).message).toBe('schema field "9lives": must start with a letter');
    expect(refusal([{ name: "A", type: "string" }, { name: "a", type: "number" }]).message).toBe(
      'schema field "a": duplicates "A" (names are unique ignoring case)',
    );
    expect(refusal([{ name: "a", type: "string", required: 1 }]).message).toBe('schema field "a": required must be true or false');
    expect(refusal("nope").message).toBe("invalid input: fields: must be an array of {name, type} objects");
  });
});

describe("fitsType", () => {
  it("checks each kind, numbers finite, integers without fraction, lists element by element", () => {
    expect(fitsType("string", "")).toBe(true);
    expect(fitsType("string", 1)).toBe(false);
    expect(fitsType("number", 1.5)).toBe(true);
    expect(fitsType("number", Number.NaN)).toBe(false);
    expect(fitsType("number", "1")).toBe(false);
    expect(fitsType("integer", -3)).toBe(true);
    expect(fitsType("integer", 3.1)).toBe(false);
    expect(fitsType("integer", 2 ** 60)).toBe(false);
    expect(fitsType("boolean", false)).toBe(true);
    expect(fitsType("boolean", 0)).toBe(false);
    expect(fitsType("string[]", [])).toBe(true);
    expect(fitsType("string[]", ["a", 2])).toBe(false);
    expect(fitsType("string[]", "a")).toBe(false);
    expect(fitsType("number[]", [1, 2.5])).toBe(true);
    expect(fitsType("number[]", [1, null])).toBe(false);
  });
});

describe("checkRecord", () => {
  it("keeps the values of a matching record, dropping null optional fields", () => {
    expect(checkRecord(FIELDS, { name: "Ann", age: 3, ratio: null, tags: ["x"] })).toEqual({ ok: true, data: { name: "Ann", age: 3, tags: ["x"] } });
  });

  it("lists every problem: required fields, types in schema order, then unknown keys", () => {
    expect(checkRecord(FIELDS, { age: "3", ok: "yes", scores: [1, "2"], Name: "Ann", extra: 1 })).toEqual({
      ok: false,
      problems: [
        { field: "name", why: "required" },
        { field: "age", why: "expected integer" },
        { field: "ok", why: "expected boolean" },
        { field: "scores", why: "expected number[]" },
        { field: "Name", why: "not a field of the schema" },
        { field: "extra", why: "not a field of the schema" },
      ],
    });
    expect(checkRecord(FIELDS, { name: null })).toEqual({ ok: false, problems: [{ field: "name", why: "required" }] });
  });

  it("does not take inherited properties for values", () => {
    const fields: ArtifactSchemaField[] = [{ name: "constructor", type: "string", required: true }];
    expect(checkRecord(fields, {})).toEqual({ ok: false, problems: [{ field: "constructor", why: "required" }] });
    expect(checkRecord(FIELDS, JSON.parse('{"name":"a","__proto__":{"x":1}}') as Record<string, unknown>)).toEqual({
      ok: false,
      problems: [{ field: "__proto__", why: "not a field of the schema" }],
    });
  });
});
