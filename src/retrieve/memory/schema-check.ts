import type { RE2JS } from "re2js";
import { AppError } from "../../errors.js";
import { compileLinear } from "./linear-regexp.js";
import { SCHEMA_FORMATS } from "./schema-formats.js";

/**
 * A JSON Schema (draft-07, as ajv 8 reads it with `strict: false`) checked by
 * walking the schema, not by generating code. Code generation (ajv's
 * `compile`) hands every caller's schema to `new Function`, and V8 keeps the
 * source and bytecode of large generated functions in its eval cache long
 * after the validator is dropped (about 0.45 MB per 500-property schema,
 * measured, never released under steady load): a caller-chosen schema must
 * leave nothing behind, so it is interpreted. Patterns run on RE2; each call
 * has a step budget, so schemas built to blow up (`anyOf` of `$ref`s that
 * double at each level) are refused instead of looping.
 */

type Schema = Record<string, unknown>;

/** Keyword evaluations one answer may spend (a 500-field schema over 60 rows spends under 10,000), and how deep `$ref`s may nest on one value. */
export const CHECK_LIMITS = { steps: 200_000, depth: 64 } as const;

/** What every check of one request shares: the whole document (for `$ref`), compiled patterns, the step budget. */
export interface CheckContext {
  root: Schema;
  patterns: Map<string, RE2JS>;
  steps: number;
}

/** A new context for one request; `patterns` may be pre-filled by the caller-schema walk. */
export function checkContext(root: Schema, patterns = new Map<string, RE2JS>()): CheckContext {
  return { root, patterns, steps: 0 };
}

/** `value` against `schema` (a subschema of `ctx.root`, or the root itself). */
export function conforms(schema: unknown, value: unknown, ctx: CheckContext): boolean {
  return valid(schema, value, ctx, 0);
}

function valid(s: unknown, data: unknown, ctx: CheckContext, depth: number): boolean {
  if (typeof s === "boolean") return s;
  if (typeof s !== "object" || s === null || Array.isArray(s)) return true;
  if (++ctx.steps > CHECK_LIMITS.steps) tooCostly(`needs more than ${CHECK_LIMITS.steps} validation steps for one answer; at most ${CHECK_LIMITS.steps}`);
  if (depth > CHECK_LIMITS.depth) tooCostly(`nests $ref evaluation more than ${CHECK_LIMITS.depth} deep; at most ${CHECK_LIMITS.depth}`);
  const schema = s as Schema;
  if (typeof schema.$ref === "string" && !valid(resolve(schema.$ref, ctx), data, ctx, depth + 1)) return false;
  if (!typeOk(schema, data) || !enumOk(schema, data)) return false;
  if (typeof data === "number" && !numberOk(schema, data)) return false;
  if (typeof data === "string" && !stringOk(schema, data, ctx)) return false;
  if (Array.isArray(data) && !arrayOk(schema, data, ctx, depth)) return false;
  if (isObject(data) && !objectOk(schema, data, ctx, depth)) return false;
  return applicatorsOk(schema, data, ctx, depth);
}

function tooCostly(why: string): never {
  throw new AppError("invalid_input", { message: `invalid input: schema: ${why}` });
}

function resolve(ref: string, ctx: CheckContext): unknown {
  if (ref === "#") return ctx.root;
  let at: unknown = ctx.root;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    at = isObject(at) || Array.isArray(at) ? (Object.hasOwn(at, token) ? (at as Record<string, unknown>)[token] : undefined) : undefined;
  }
  return at;
}

/** ajv's type test: `integer` is a number with no fraction (Infinity included); `nullable: true` adds null. */
function typeOk(s: Schema, data: unknown): boolean {
  if (s.type === undefined) return true;
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  if (s.nullable === true && data === null) return true;
  return types.some((t) => isType(t, data));
}

function isType(t: string, d: unknown): boolean {
  if (t === "null") return d === null;
  if (t === "integer") return typeof d === "number" && !(d % 1) && !Number.isNaN(d);
  if (t === "array") return Array.isArray(d);
  if (t === "object") return isObject(d);
  return typeof d === t;
}

function enumOk(s: Schema, data: unknown): boolean {
  if (Array.isArray(s.enum) && !s.enum.some((e) => equal(e, data))) return false;
  return !("const" in s) || equal(s.const, data);
}

function numberOk(s: Schema, n: number): boolean {
  const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
  const multipleOf = num("multipleOf");
  if (multipleOf !== undefined) {
    const q = n / multipleOf;
    if (q !== parseInt(String(q))) return false;
  }
  const [max, min, xmax, xmin] = [num("maximum"), num("minimum"), num("exclusiveMaximum"), num("exclusiveMinimum")];
  return !((max !== undefined && n > max) || (min !== undefined && n < min) || (xmax !== undefined && n >= xmax) || (xmin !== undefined && n <= xmin));
}

/** Lengths count code points (a surrogate pair is one), as ajv does. */
function stringOk(s: Schema, str: string, ctx: CheckContext): boolean {
  if (typeof s.maxLength === "number" || typeof s.minLength === "number") {
    const length = [...str].length;
    if ((typeof s.maxLength === "number" && length > s.maxLength) || (typeof s.minLength === "number" && length < s.minLength)) return false;
  }
  if (typeof s.pattern === "string" && !pattern(s.pattern, ctx).test(str)) return false;
  const format = typeof s.format === "string" ? SCHEMA_FORMATS[s.format] : undefined;
  return !format || format(str);
}

function pattern(p: string, ctx: CheckContext): RE2JS {
  let re = ctx.patterns.get(p);
  if (!re) {
    re = compileLinear(p);
    ctx.patterns.set(p, re);
  }
  return re;
}

function arrayOk(s: Schema, a: unknown[], ctx: CheckContext, depth: number): boolean {
  if ((typeof s.maxItems === "number" && a.length > s.maxItems) || (typeof s.minItems === "number" && a.length < s.minItems)) return false;
  if (s.uniqueItems === true && a.some((x, i) => a.findIndex((y) => equal(x, y)) !== i)) return false;
  if (Array.isArray(s.items)) {
    const tuple = s.items;
    if (!tuple.every((sub, i) => i >= a.length || valid(sub, a[i], ctx, depth))) return false;
    if (s.additionalItems !== undefined && !a.slice(tuple.length).every((x) => valid(s.additionalItems, x, ctx, depth))) return false;
  } else if (s.items !== undefined && !a.every((x) => valid(s.items, x, ctx, depth))) return false;
  return s.contains === undefined || a.some((x) => valid(s.contains, x, ctx, depth));
}

function objectOk(s: Schema, o: Record<string, unknown>, ctx: CheckContext, depth: number): boolean {
  const keys = Object.keys(o).filter((k) => o[k] !== undefined);
  if ((typeof s.maxProperties === "number" && keys.length > s.maxProperties) || (typeof s.minProperties === "number" && keys.length < s.minProperties)) return false;
  if (Array.isArray(s.required) && !s.required.every((k) => typeof k !== "string" || keys.includes(k))) return false;
  const props = isObject(s.properties) ? s.properties : {};
  const patterns = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  for (const k of keys) {
    const own = Object.hasOwn(props, k);
    if (own && !valid(props[k], o[k], ctx, depth)) return false;
    const matching = patterns.filter(([p]) => pattern(p, ctx).test(k));
    if (!matching.every(([, sub]) => valid(sub, o[k], ctx, depth))) return false;
    if (!own && matching.length === 0 && s.additionalProperties !== undefined && !valid(s.additionalProperties, o[k], ctx, depth)) return false;
    if (s.propertyNames !== undefined && !valid(s.propertyNames, k, ctx, depth)) return false;
  }
  return dependenciesOk(s, o, keys, ctx, depth);
}

function dependenciesOk(s: Schema, o: Record<string, unknown>, keys: string[], ctx: CheckContext, depth: number): boolean {
  if (!isObject(s.dependencies)) return true;
  for (const [k, dep] of Object.entries(s.dependencies)) {
    if (!keys.includes(k)) continue;
    if (Array.isArray(dep) ? !dep.every((r) => typeof r !== "string" || keys.includes(r)) : !valid(dep, o, ctx, depth)) return false;
  }
  return true;
}

function applicatorsOk(s: Schema, data: unknown, ctx: CheckContext, depth: number): boolean {
  const list = (k: string) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : undefined);
  const [all, any, one] = [list("allOf"), list("anyOf"), list("oneOf")];
  if (all && !all.every((sub) => valid(sub, data, ctx, depth))) return false;
  if (any && !any.some((sub) => valid(sub, data, ctx, depth))) return false;
  if (one && one.filter((sub) => valid(sub, data, ctx, depth)).length !== 1) return false;
  if (s.not !== undefined && valid(s.not, data, ctx, depth)) return false;
  if (s.if === undefined) return true;
  const branch = valid(s.if, data, ctx, depth) ? s.then : s.else;
  return branch === undefined || valid(branch, data, ctx, depth);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Deep equality of JSON values (ajv's `enum`, `const`, `uniqueItems`). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => equal(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.hasOwn(bo, k) && equal((a as Record<string, unknown>)[k], bo[k]));
}
