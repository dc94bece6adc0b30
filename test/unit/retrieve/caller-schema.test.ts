import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/errors.js";
import { SCHEMA_CAPS } from "../../../src/retrieve/memory/caller-schema.js";
import { compileSchema, synthesize } from "../../../src/retrieve/memory/structured-answer.js";

const REDOS = { type: "object", properties: { budget: { type: "string", pattern: "^(\\w+\\s?)*$" } } };
const row = (cellId: string, text: string) => ({ cellId, text });

/** The 400 a call throws, as `{ status, code, message }`. */
function refusal(schema: Record<string, unknown>): { status: number; code: string; message: string } {
  try {
    synthesize(schema, "budget", [row("c1", "The budget is ten euros")]);
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

function flatSchema(n: number, prefix = "field"): Record<string, unknown> {
  const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: "string", description: `about ${prefix} ${i}` }]));
  return { type: "object", properties };
}

describe("caller schema: patterns run on a linear-time engine", () => {
  it("the catastrophic-backtracking pattern over a 60-character value answers at once, and correctly", () => {
    const value = `${"a".repeat(58)}-x`;
    expect(value.length).toBeGreaterThanOrEqual(60);
    const started = performance.now();
    const hostile = synthesize(REDOS, "budget", [row("c1", `The budget is ${value}.`)]);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(2000);
    // "-" is neither \w nor \s: the pattern does not match, so no row fills the field.
    expect(hostile).toEqual({ structured: {}, citations: {} });
    // Only word characters: the pattern matches and the value is taken.
    const clean = synthesize(REDOS, "budget", [row("c1", `The budget is ${value}.`), row("c2", `The budget is ${"a".repeat(58)}_x.`)]);
    expect(clean).toEqual({ structured: { budget: `${"a".repeat(58)}_x` }, citations: { "/budget": ["c2"] } });
    // The same answers as ECMAScript gives on inputs short enough to be safe there.
    for (const safe of ["aaaa-x", "aaaa_x"]) {
      const expected = new RegExp("^(\\w+\\s?)*$", "u").test(safe);
      expect(synthesize(REDOS, "budget", [row("c", `The budget is ${safe}`)]).structured).toEqual(expected ? { budget: safe } : {});
    }
  });

  it("patterns keep their ECMAScript meaning: \\uXXXX escapes, named groups, Unicode spaces", () => {
    const schema = (pattern: string) => ({ type: "object", properties: { name: { type: "string", pattern } } });
    expect(synthesize(schema("^Caf\\u00e9 (?<n>\\w+)$"), "name", [row("c", "The name is Café Bonjour")]).structured).toEqual({ name: "Café Bonjour" });
    // The span read is "x\u00a0y" and "a\u2028x": ECMAScript's \S excludes a no-break space, and its "." a line separator.
    expect(synthesize(schema("^\\S+$"), "name", [row("c", "The name is x\u00a0y")]).structured).toEqual({});
    expect(synthesize(schema("^\\S+$"), "name", [row("c", "The name is x_y")]).structured).toEqual({ name: "x_y" });
    expect(synthesize(schema("^a.x$"), "name", [row("c", "The name is a\u2028x")]).structured).toEqual({});
  });

  it("patternProperties run on the engine too: a backtracking key pattern over a 41-character name", () => {
    const name = `${"a".repeat(40)}!`;
    const schema = { type: "object", properties: { [name]: { type: "string" } }, patternProperties: { "^(a+)+$": { type: "number" } } };
    const started = performance.now();
    const answer = synthesize(schema, name, [row("c", `${name} is Forty`)]);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(answer.structured).toEqual({ [name]: "Forty" });
  });

  it("a pattern RE2 cannot run (backreference, lookaround) is 400 naming it", () => {
    for (const pattern of ["(a)\\1", "^(?=a)", "(?<!x)y", "a(?!b)"]) {
      const r = refusal({ type: "object", properties: { budget: { type: "string", pattern } } });
      expect(r.status).toBe(400);
      expect(r.code).toBe("invalid_input");
      expect(r.message.startsWith(`invalid input: schema: pattern ${JSON.stringify(pattern)} is not supported (`)).toBe(true);
    }
    const key = refusal({ type: "object", patternProperties: { "(x)\\1": {} } });
    expect(key.message).toMatch(/^invalid input: schema: pattern "\(x\)\\\\1" is not supported \(/);
  });
});

describe("caller schema: nothing outlives the call", () => {
  it("a $id from one call does not affect another call with the same $id", () => {
    const first = { $id: "urn:pks:shared", type: "object", properties: { budget: { type: "string" } } };
    const second = { $id: "urn:pks:shared", type: "object", properties: { owner: { type: "string" } }, required: ["owner"] };
    const rows = [row("c1", "The budget is ten euros"), row("c2", "The owner is Dana")];
    expect(synthesize(first, "budget owner", rows).structured).toEqual({ budget: "ten euros" });
    expect(synthesize(second, "budget owner", rows).structured).toEqual({ owner: "Dana" });
    expect(synthesize(first, "budget owner", rows).structured).toEqual({ budget: "ten euros" });
  });

  it("$ref may point into the schema itself; anything else is 400", () => {
    const local = { type: "object", definitions: { text: { type: "string", maxLength: 40 } }, properties: { budget: { $ref: "#/definitions/text" } } };
    expect(synthesize(local, "budget", [row("c", "The budget is 10 euros")]).structured).toEqual({ budget: "10 euros" });
    // The span read is longer than the referenced maxLength: no value, and the required field is missing.
    const tooLong = [row("c", "The budget is Ten-thousand-euros-a-year-as-agreed-with-finance, signed in spring")];
    expect(synthesize({ ...local, required: ["budget"] }, "budget", tooLong).structured).toBeNull();
    for (const ref of ["https://other.example/tenant.json", "urn:pks:shared", "other.json#/definitions/x", "#anchor", "http://json-schema.org/draft-07/schema#"]) {
      const r = refusal({ type: "object", properties: { budget: { $ref: ref } } });
      expect(r.status).toBe(400);
      expect(r.message).toBe(`invalid input: schema: $ref ${JSON.stringify(ref)} points outside the schema; only "#" and "#/…" pointers into it are allowed`);
    }
    expect(refusal({ type: "object", properties: { a: { $dynamicRef: "#meta" } } }).message).toBe("invalid input: schema: $dynamicRef is not supported");
    expect(refusal({ type: "object", properties: { a: { $recursiveRef: "#" } } }).message).toBe("invalid input: schema: $recursiveRef is not supported");
    // A $ref hidden in an unknown keyword and reached through a local pointer is found too.
    expect(refusal({ $ref: "#/x", x: { $ref: "https://other.example/s.json" } }).message).toMatch(/^invalid input: schema: \$ref "https:/);
  });

  it("properties named $ref or $id are data, not keywords", () => {
    const schema = { type: "object", properties: { $ref: { type: "string" }, $id: { type: "number" } } };
    expect(synthesize(schema, "ref id", [row("c1", "The ref is R-42."), row("c2", "The id is 42.")]).structured).toEqual({ $ref: "R-42", $id: 42 });
  });

  it("300 calls with distinct 500-property schemas leave the heap flat", () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    const rows = [row("c1", "field 1 is the first field"), row("c2", "field 2 is the second field")];
    const heap = () => {
      gc?.();
      return process.memoryUsage().heapUsed;
    };
    for (let i = 0; i < 20; i++) synthesize(flatSchema(500, `warm${i}x`), "field", rows);
    const before = heap();
    for (let i = 0; i < 300; i++) synthesize(flatSchema(500, `f${i}x`), "field", rows);
    const after = heap();
    const grownMb = (after - before) / 2 ** 20;
    console.info(`heap before ${(before / 2 ** 20).toFixed(1)} MB, after 300 schemas ${(after / 2 ** 20).toFixed(1)} MB (gc ${gc ? "forced" : "not available"})`);
    // A kept schema costs about 2 MB (600 MB for 300); without a forced collection, garbage still waiting stays under the generous bound.
    expect(grownMb).toBeLessThan(gc ? 16 : 200);
  }, 120_000);
});

describe("caller schema: caps are 400 naming the cap", () => {
  it("a flat 2,000-property schema", () => {
    expect(refusal(flatSchema(2000))).toEqual({ status: 400, code: "invalid_input", message: "invalid input: schema: has 2000 properties; at most 500" });
  });

  it("serialized size, nesting depth and number of patterns", () => {
    const big = { type: "object", properties: { budget: { type: "string", description: "x".repeat(70_000) } } };
    expect(refusal(big).message).toBe(`invalid input: schema: is ${JSON.stringify(big).length} bytes; at most ${SCHEMA_CAPS.bytes}`);
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 19; i++) deep = { type: "object", properties: { a: deep } };
    expect(refusal(deep).message).toBe("invalid input: schema: nests subschemas 20 deep; at most 16");
    let json: unknown = 1;
    for (let i = 0; i < 10_000; i++) json = [json];
    expect(refusal({ type: "object", enum: [json] }).message).toBe("invalid input: schema: nests JSON more than 64 levels deep; at most 64");
    const patterns = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: "string", pattern: `^p${i}$` }]));
    expect(refusal({ type: "object", properties: patterns }).message).toBe("invalid input: schema: has 40 patterns; at most 32");
    const heavy = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}`, { type: "string", pattern: `(.{999}${i})` }]));
    expect(refusal({ type: "object", properties: heavy }).message).toMatch(/^invalid input: schema: patterns compile to \d+ RE2 instructions; at most 4000$/);
  });

  it("schemas built to blow up evaluation are 400, quickly", () => {
    const definitions: Record<string, unknown> = { d40: { type: "null" } };
    for (let i = 0; i < 40; i++) definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { $ref: `#/definitions/d${i + 1}` }] };
    const started = performance.now();
    expect(refusal({ type: "object", definitions, properties: { budget: { $ref: "#/definitions/d0" } } }).message).toBe(
      "invalid input: schema: needs more than 200000 validation steps for one answer; at most 200000",
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(refusal({ type: "object", properties: { budget: { $ref: "#/properties/budget" } } }).message).toBe(
      "invalid input: schema: nests $ref evaluation more than 64 deep; at most 64",
    );
  });

  it("$schema other than draft-07 is 400; draft-07 is accepted", () => {
    const ok = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { budget: { type: "string" } } };
    expect(synthesize(ok, "budget", [row("c", "The budget is ten euros")]).structured).toEqual({ budget: "ten euros" });
    expect(refusal({ ...ok, $schema: "https://json-schema.org/draft/2020-12/schema" }).message).toMatch(/^invalid input: schema: \$schema "https:\/\/json-schema.org\/draft\/2020-12\/schema" is not supported/);
  });

  it("a schema the meta-schema rejects is still 400", () => {
    expect(refusal({ type: "nonsense" }).message).toMatch(/^schema is not a valid JSON Schema: /);
    expect(refusal({ type: "object", properties: { a: { minLength: -1 } } }).message).toMatch(/^schema is not a valid JSON Schema: /);
  });
});

describe("caller schema: formats", () => {
  it("common formats are checked, quietly; unknown ones accept any string", () => {
    const writes: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (writes.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      const schema = {
        type: "object",
        properties: { due: { type: "string", format: "date" }, contact: { type: "string", format: "email" }, phone: { type: "string", format: "phone" } },
      };
      const rows = [row("c1", "Due 2024-13-45, then due 2024-02-29"), row("c2", "Contact billing@example.com by phone"), row("c3", "The phone number is 555-0100")];
      // 2024-13-45 is no calendar day: the valid date of the same clause is taken.
      const a = synthesize(schema, "due contact phone", rows);
      expect(a.structured).toEqual({ due: "2024-02-29", contact: "billing@example.com", phone: "555-0100" });
      expect(synthesize(schema, "due", [row("c1", "Due 2024-13-45")]).structured).toEqual({});
    } finally {
      process.stderr.write = original;
    }
    expect(writes.join("")).not.toMatch(/unknown format/);
  });
});

describe("caller schema: checks as ajv does", () => {
  const SCHEMAS: unknown[] = [
    { type: "integer", minimum: 0, maximum: 10, multipleOf: 2 },
    { type: ["string", "null"], minLength: 1, maxLength: 3, pattern: "^[a-c]+$" },
    { type: "string", nullable: true, enum: ["a", "b", null] },
    { const: { a: [1, "x"] } },
    { type: "array", items: { type: "number" }, minItems: 1, maxItems: 3, uniqueItems: true },
    { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false },
    { type: "array", contains: { type: "boolean" } },
    { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"], additionalProperties: false },
    { type: "object", patternProperties: { "^x": { type: "integer" } }, additionalProperties: { type: "string" }, minProperties: 1, maxProperties: 2 },
    { dependencies: { a: ["b"], b: { required: ["c"] } } },
    { propertyNames: { maxLength: 2 } },
    { if: { type: "string" }, then: { minLength: 2 }, else: { type: "number" } },
    { allOf: [{ minimum: 1 }], anyOf: [{ type: "integer" }, { type: "string" }], oneOf: [{ maximum: 5 }, { minimum: 3 }], not: { const: 4 } },
    { definitions: { n: { type: "number", exclusiveMinimum: 0 } }, type: "object", properties: { a: { $ref: "#/definitions/n" }, b: { type: "array", items: { $ref: "#/definitions/n" } } } },
    { $ref: "#/definitions/tree", definitions: { tree: { type: "object", properties: { v: { type: "number" }, kids: { type: "array", items: { $ref: "#/definitions/tree" } } }, required: ["v"] } } },
    { type: "object", properties: { a: { type: "string" } }, $ref: "#/definitions/b", definitions: { b: { required: ["b"] } } },
    { not: {} },
    {},
  ];
  const KEYS = ["a", "b", "c", "x1", "xy", "v", "kids", "long"];
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constantFrom("a", "ab", "abcd", null), fc.jsonValue({ maxDepth: 2 }))),
    fc.array(fc.oneof(fc.integer({ min: -2, max: 12 }), fc.boolean(), fc.constantFrom("a", "ab", "abcd"))),
    fc.constantFrom(4, 6, 12, 2.5, "ab", "abcd", null, { v: 1, kids: [{ v: 2 }, { kids: [] }] }),
  );

  it("the same verdict as ajv on every schema and generated value", () => {
    for (const schema of SCHEMAS) {
      const ours = compileSchema(schema);
      const theirs = new Ajv({ strict: false, logger: false }).compile(schema as object);
      fc.assert(fc.property(value, (v) => ours(v) === theirs(v)), { numRuns: 300 });
    }
  });
});
