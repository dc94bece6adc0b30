import { describe, expect, it } from "vitest";
import { AppError } from "../../../../src/errors.js";
import { FIELD_TYPES } from "../../../../src/vocabulary.js";
import { TYPE_FIELD_RULES, validateFieldList, validateFields } from "../../../../src/categories/schema/validate-fields.js";
import type { NamedField } from "../../../../src/categories/schema/validate-fields.js";
import { RESERVED_FIELD_NAMES } from "../../../../src/vocabulary.js";

/** The AppError `validateFields(input)` throws (fails the test when it does not throw one). */
function refusal(input: unknown): AppError {
  try {
    validateFields(input);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("validateFields accepted the input");
}

const VOCABULARY = "text, number, integer, boolean, date, datetime, url, email, entity, text[]";

describe("validateFields", () => {
  it("normalises accepted fields: names trimmed, description default \"\", required default false", () => {
    expect(
      validateFields([
        { name: "  Severity ", type: "text" },
        { name: "owner", type: " entity ", description: "  who owns it ", required: true },
        { name: "tags", type: "text[]", description: null, required: null },
      ]),
    ).toEqual([
      { name: "Severity", type: "text", description: "", required: false },
      { name: "owner", type: "entity", description: "who owns it", required: true },
      { name: "tags", type: "text[]", description: "", required: false },
    ]);
  });

  it("accepts every type of the vocabulary and an empty list", () => {
    expect(validateFields([])).toEqual([]);
    const fields = FIELD_TYPES.map((type, i) => ({ name: `f${i}`, type }));
    expect(validateFields(fields).map((f) => f.type)).toEqual([...FIELD_TYPES]);
  });

  it("ignores keys it does not know, and keeps none of them", () => {
    expect(validateFields([{ name: "a", type: "url", extra: 1, schemaVersion: 3 }])).toEqual([
      { name: "a", type: "url", description: "", required: false },
    ]);
  });

  it("accepts a name of exactly 64 characters and names starting with any letter", () => {
    const name = "a".repeat(64);
    expect(validateFields([{ name, type: "text" }])[0]!.name).toBe(name);
    expect(validateFields([{ name: "Éclat", type: "text" }, { name: "名前", type: "text" }])).toHaveLength(2);
  });

  it("refuses an unnamed field", () => {
    for (const field of [{ type: "text" }, { name: 3, type: "text" }, { name: "   ", type: "text" }, { name: "", type: "text" }]) {
      const err = refusal([field]);
      expect(err.code).toBe("invalid_schema_field");
      expect(err.status).toBe(400);
      expect(err.message).toBe('schema field "": a field needs a name');
    }
  });

  it("refuses a duplicate ignoring case, naming the earlier field", () => {
    expect(refusal([{ name: "Owner", type: "entity" }, { name: "owner ", type: "text" }]).message).toBe(
      'schema field "owner": duplicates "Owner" (names are unique ignoring case)',
    );
  });

  it("refuses a reserved name, listing the reserved names", () => {
    const why = "the name is reserved (schemaVersion, cellId, entityId, entityIds, fileIds, projectId, text, updatedAt)";
    expect(refusal([{ name: "cellId", type: "text" }]).message).toBe(`schema field "cellId": ${why}`);
    expect(refusal([{ name: "Text", type: "text" }]).message).toBe(`schema field "Text": ${why}`);
  });

  it("refuses a name longer than 64 characters, showing it cut to 64 and '…'", () => {
    const err = refusal([{ name: "b".repeat(65), type: "text" }]);
    expect(err.code).toBe("invalid_schema_field");
    expect(err.message).toBe(`schema field "${"b".repeat(64)}…": longer than 64 characters`);
  });

  it("refuses a name that does not start with a letter", () => {
    expect(refusal([{ name: "_private", type: "text" }]).message).toBe('schema field "_private": must start with a letter');
    expect(refusal([{ name: "2nd owner", type: "text" }]).message).toBe('schema field "2nd owner": must start with a letter');
  });

  it("refuses a type outside the vocabulary, listing it in the message and as `vocabulary`", () => {
    const err = refusal([{ name: "due", type: "timestamp" }]);
    expect(err.code).toBe("invalid_schema_field");
    expect(err.message).toBe(`schema field "due": type "timestamp" is not one of ${VOCABULARY}`);
    expect(err.extra).toEqual({ vocabulary: [...FIELD_TYPES] });
    expect(err.toEnvelope()).toMatchObject({ vocabulary: [...FIELD_TYPES] });
  });

  it("shows a missing type as \"\" and another non-string type as JSON", () => {
    expect(refusal([{ name: "due" }]).message).toBe(`schema field "due": type "" is not one of ${VOCABULARY}`);
    expect(refusal([{ name: "due", type: 7 }]).message).toBe(`schema field "due": type "7" is not one of ${VOCABULARY}`);
    expect(refusal([{ name: "due", type: "Text" }]).message).toBe(`schema field "due": type "Text" is not one of ${VOCABULARY}`);
  });

  it("refuses a description that is not a string and a required that is not a boolean", () => {
    expect(refusal([{ name: "a", type: "text", description: 5 }]).message).toBe('schema field "a": description must be a string');
    expect(refusal([{ name: "a", type: "text", required: "yes" }]).message).toBe('schema field "a": required must be true or false');
  });

  it("refuses a field that is not an object, naming its 1-based position", () => {
    for (const bad of [null, "severity", 3, ["severity", "text"]]) {
      expect(refusal([{ name: "a", type: "text" }, bad]).message).toBe('schema field "#2": a field is an object with name and type');
    }
  });

  it("refuses fields that are not an array with invalid_input", () => {
    for (const bad of [undefined, null, {}, "severity", { name: "a", type: "text" }]) {
      const err = refusal(bad);
      expect(err.code).toBe("invalid_input");
      expect(err.status).toBe(400);
      expect(err.message).toBe("invalid input: fields: must be an array of {name, type} objects");
    }
  });

  it("reports the first problem in field order", () => {
    const err = refusal([
      { name: "ok", type: "text" },
      { name: "bad", type: "nope" },
      { name: "" },
      { name: "cellId", type: "text" },
    ]);
    expect(err.message).toBe(`schema field "bad": type "nope" is not one of ${VOCABULARY}`);
    expect(refusal([{ name: "", type: "nope" }]).message).toBe('schema field "": a field needs a name');
  });
});

describe("validateFieldList (the rules for any kind of schema)", () => {
  const rules = { types: ["red", "blue"] as const, reserved: ["colour", "Shade"] };
  const refused = (input: unknown, finish: (f: NamedField<"red" | "blue">) => unknown = (f) => f): AppError => {
    try {
      validateFieldList(input, rules, finish);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return err as AppError;
    }
    throw new Error("validateFieldList accepted the input");
  };

  it("type schemas use it with their own vocabulary and reserved names", () => {
    expect(TYPE_FIELD_RULES).toEqual({ types: FIELD_TYPES, reserved: RESERVED_FIELD_NAMES });
  });

  it("names the given vocabulary and reserved list in its messages", () => {
    const err = refused([{ name: "a", type: "green" }]);
    expect(err.message).toBe('schema field "a": type "green" is not one of red, blue');
    expect(err.extra).toEqual({ vocabulary: ["red", "blue"] });
    expect(refused([{ name: "shade", type: "red" }]).message).toBe('schema field "shade": the name is reserved (colour, Shade)');
    expect(validateFieldList([{ name: "cellId", type: "red" }], rules, (f) => f.name)).toEqual(["cellId"]);
  });

  it("hands each named and typed field to finish, in order, and keeps what it returns", () => {
    const seen: string[] = [];
    const out = validateFieldList([{ name: " a ", type: "red", x: 1 }, { name: "b", type: "blue" }], rules, (f) => {
      seen.push(f.name);
      return `${f.name}:${f.type}:${String(f.raw.x ?? "")}`;
    });
    expect(out).toEqual(["a:red:1", "b:blue:"]);
    expect(seen).toEqual(["a", "b"]);
  });

  it("a problem finish finds in an earlier field wins over a later field's name or type", () => {
    const finish = (f: NamedField<"red" | "blue">) => {
      if (f.raw.bad) throw new AppError("invalid_schema_field", { message: `schema field "${f.name}": bad` });
      return f;
    };
    expect(refused([{ name: "a", type: "red", bad: true }, { name: "", type: "green" }], finish).message).toBe('schema field "a": bad');
  });
});
