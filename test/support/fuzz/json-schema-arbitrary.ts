/**
 * Valid-ish values from a JSON Schema (the subset `z.toJSONSchema` writes
 * for the service's inputs): objects, strings, numbers, arrays, enums and
 * unions. A property whose name has a hint is drawn from the hint instead,
 * so opaque fields (`{}` for `z.unknown()`) still get plausible values.
 */
import fc from "fast-check";
import { z } from "zod";

/** A JSON Schema node, as far as the generator reads it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  minItems?: number;
}

/** Arbitraries by property name, used before the property's own schema. */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** The input JSON Schema of a zod schema (transforms and refinements stand as their input type, or `{}`). */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** The sub-schema at `key` of an object schema (`{}` when absent). */
export function propertyOf(schema: JsonSchema, key: string): JsonSchema {
  return schema.properties?.[key] ?? {};
}

const SMALL_STRING = 40;
const SMALL_ARRAY = 4;

/** A plain string within the schema's length bounds, short unless the bounds demand more. */
function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? SMALL_STRING, SMALL_STRING));
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: "binary" }));
}

function integerArb(s: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? -1000, -1_000_000);
  const max = Math.min(s.maximum ?? 1000, 1_000_000);
  return fc.oneof(fc.integer({ min, max: Math.max(min, max) }), fc.constantFrom(...[min, max, 1].filter((n) => n >= min && n <= max)));
}

function numberArb(s: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? -1e6, -1e6);
  const max = Math.min(s.maximum ?? 1e6, 1e6);
  return fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values the schema admits (mostly), `hints` winning for named properties. */
export function arbitraryOf(schema: JsonSchema, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((s) => arbitraryOf(s, hints, depth + 1)));
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, hints, depth + 1)));
  switch (types[0]) {
    case "object":
      return objectArb(schema, hints, depth);
    case "string":
      return stringArb(schema);
    case "integer":
      return integerArb(schema);
    case "number":
      return numberArb(schema);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const maxLength = Math.min(schema.maxItems ?? SMALL_ARRAY, SMALL_ARRAY);
      const minLength = Math.min(schema.minItems ?? 0, maxLength);
      return fc.array(arbitraryOf(schema.items ?? {}, hints, depth + 1), { minLength, maxLength });
    }
    default:
      // `{}`: anything at all.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys) model[key] = hints[key] ?? arbitraryOf(properties[key]!, hints, depth + 1);
  return fc.record(model, { requiredKeys: schema.required?.filter((k) => k in model) ?? [] });
}
