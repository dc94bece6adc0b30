import { Ajv } from "ajv";
import type { RE2JS } from "re2js";
import { AppError } from "../../errors.js";
import { compileLinear } from "./linear-regexp.js";
import { checkContext, conforms } from "./schema-check.js";

/**
 * Caller-supplied JSON Schemas are checked per request with no shared
 * registry: nothing the caller sends is registered, compiled to code or
 * cached, so no schema, `$id` or validator outlives the request or reaches
 * another caller. `$id` is ignored (it names nothing any other schema can
 * reach, and every `#…` pointer resolves against the document as sent);
 * `$ref` must be such a pointer. Before use the schema is measured against
 * caps and every `pattern` is compiled on RE2, so oversized schemas and
 * non-linear patterns are 400s.
 */

type Schema = Record<string, unknown>;

/** Caps on a caller's schema; each refusal names the cap. */
export const SCHEMA_CAPS = {
  /** Serialized JSON, in UTF-8 bytes. */
  bytes: 64 * 1024,
  /** Keys of all `properties` maps, summed. */
  properties: 500,
  /** Subschemas nested in subschemas. */
  depth: 16,
  /** JSON nesting of the document as sent (data in `enum`, `const`, `default` included). */
  jsonDepth: 64,
  /** `pattern`s and `patternProperties` keys. */
  patterns: 32,
  /** RE2 program size of all patterns together: what matching time grows with. */
  patternProgram: 4000,
} as const;

/** The only `$schema` a schema may name: draft-07, the dialect ajv's default class speaks. */
const DRAFT_07 = "http://json-schema.org/draft-07/schema";

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = ["items", "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const MAP = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"];

/**
 * Checks a caller's schema against the draft-07 meta-schema, validating it
 * as data: the meta-schema is the only thing this instance ever compiles (a
 * `$schema` other than draft-07 is refused before it could add a lookup).
 */
const metaChecker = new Ajv({ strict: false, logger: false, validateFormats: false });

/** A caller's schema made safe to check values against, for one request. */
export interface CallerSchema {
  /** A deep copy of the caller's schema. */
  schema: Schema;
  /** A validator for this schema or one of its subschemas (`$ref`s resolve in the whole document). */
  validator(s: unknown): (value: unknown) => boolean;
}

/**
 * Measures, checks and copies the caller's schema, and returns validators
 * bound to this request alone. Throws 400 (`invalid_input`) naming the cap
 * exceeded, an outside `$ref`, or a pattern RE2 cannot run.
 */
export function prepareCallerSchema(raw: unknown): CallerSchema {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) refuse("must be a JSON object");
  const depth = jsonDepth(raw, SCHEMA_CAPS.jsonDepth);
  if (depth > SCHEMA_CAPS.jsonDepth) refuse(`nests JSON more than ${SCHEMA_CAPS.jsonDepth} levels deep; at most ${SCHEMA_CAPS.jsonDepth}`);
  const text = JSON.stringify(raw);
  const schema = JSON.parse(text) as Schema;
  checkDialect(schema);
  const walk = new SchemaWalk(schema);
  walk.run();
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > SCHEMA_CAPS.bytes) refuse(`is ${bytes} bytes; at most ${SCHEMA_CAPS.bytes}`);
  const ctx = checkContext(schema, walk.compilePatterns());
  metaValidate(schema);
  return { schema, validator: (s) => (value) => conforms(s, value, ctx) };
}

/** Throws the 400 every refusal here shares: `invalid input: schema: <why>`. */
function refuse(why: string): never {
  throw new AppError("invalid_input", { message: `invalid input: schema: ${why}` });
}

function checkDialect(schema: Schema): void {
  const dialect = schema.$schema;
  if (dialect === undefined) return;
  if (typeof dialect !== "string" || dialect.replace(/#$/, "") !== DRAFT_07) {
    refuse(`$schema ${JSON.stringify(String(dialect).slice(0, 100))} is not supported; use ${DRAFT_07}# or leave it out`);
  }
}

function metaValidate(schema: Schema): void {
  const valid = metaChecker.validate(`${DRAFT_07}#`, schema);
  const why = valid ? "" : metaChecker.errorsText(metaChecker.errors, { dataVar: "schema" }).slice(0, 200);
  metaChecker.errors = null;
  if (!valid) invalidSchema(`schema is invalid: ${why}`);
}

/** The 400 for a schema that is not one, worded as before: `schema is not a valid JSON Schema: <why>`. */
function invalidSchema(why: string): never {
  throw new AppError("invalid_input", { message: `schema is not a valid JSON Schema: ${why}` });
}

/**
 * The JSON nesting depth of a value, counted iteratively (a deeply nested
 * body cannot overflow the stack here) and given up past `cap`.
 */
function jsonDepth(value: unknown, cap: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d > max) max = d;
    if (max > cap) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * One pass over every subschema (by keyword, so a property named `$ref` is
 * data, not a keyword): counts properties, depth and patterns, and allows
 * only `$ref`s that are JSON Pointers into this same document, whose
 * targets it walks too. The counted caps are checked
 * after the pass, so each refusal gives the full figure; the patterns are
 * compiled apart, once the size is known to be within its cap.
 */
class SchemaWalk {
  private readonly seen = new Set<object>();
  private properties = 0;
  private depth = 0;
  private readonly patterns: string[] = [];
  /** `$ref` targets, walked after the tree (a queue, so chains of refs cannot deepen the stack). */
  private readonly targets: Array<[unknown, number]> = [];

  constructor(private readonly root: Schema) {}

  run(): void {
    this.visit(this.root, 1);
    for (let next = this.targets.pop(); next; next = this.targets.pop()) this.visit(...next);
    const caps = SCHEMA_CAPS;
    if (this.depth > caps.depth) refuse(`nests subschemas ${this.depth} deep; at most ${caps.depth}`);
    if (this.properties > caps.properties) refuse(`has ${this.properties} properties; at most ${caps.properties}`);
    if (this.patterns.length > caps.patterns) refuse(`has ${this.patterns.length} patterns; at most ${caps.patterns}`);
  }

  /** Compiles every pattern on RE2 (400 naming one it cannot run), caps their total program size, and returns them. */
  compilePatterns(): Map<string, RE2JS> {
    const compiled = new Map<string, RE2JS>();
    let program = 0;
    for (const p of new Set(this.patterns)) {
      const re = compileLinear(p);
      compiled.set(p, re);
      program += re.programSize();
    }
    if (program > SCHEMA_CAPS.patternProgram) refuse(`patterns compile to ${program} RE2 instructions; at most ${SCHEMA_CAPS.patternProgram}`);
    return compiled;
  }

  private visit(s: unknown, depth: number): void {
    if (typeof s !== "object" || s === null || Array.isArray(s) || this.seen.has(s)) return;
    this.seen.add(s);
    this.depth = Math.max(this.depth, depth);
    const schema = s as Schema;
    checkNullable(schema);
    this.checkRefs(schema, depth);
    if (typeof schema.pattern === "string") this.patterns.push(schema.pattern);
    for (const k of ONE) this.visit(schema[k], depth + 1);
    for (const k of LIST) if (Array.isArray(schema[k])) for (const sub of schema[k] as unknown[]) this.visit(sub, depth + 1);
    for (const k of MAP) this.visitMap(schema, k, depth);
  }

  private visitMap(schema: Schema, k: string, depth: number): void {
    const map = schema[k];
    if (typeof map !== "object" || map === null || Array.isArray(map)) return;
    const names = Object.keys(map);
    if (k === "properties") this.properties += names.length;
    if (k === "patternProperties") this.patterns.push(...names);
    for (const name of names) this.visit((map as Schema)[name], depth + 1);
  }

  private checkRefs(schema: Schema, depth: number): void {
    for (const k of ["$dynamicRef", "$recursiveRef"]) if (k in schema) refuse(`${k} is not supported`);
    if (!("$ref" in schema)) return;
    const ref = schema.$ref;
    if (typeof ref !== "string" || !(ref === "#" || ref.startsWith("#/"))) {
      refuse(`$ref ${JSON.stringify(String(ref).slice(0, 100))} points outside the schema; only "#" and "#/…" pointers into it are allowed`);
    }
    const target = pointer(this.root, ref);
    if (target === undefined) invalidSchema(`can't resolve reference ${ref} from id #`);
    this.targets.push([target, depth + 1]);
  }
}

/** ajv's rules for OpenAPI's `nullable`: only beside `type`, and not `false` where `type` allows null. */
function checkNullable(s: Schema): void {
  if (s.nullable === undefined) return;
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  if (types.length === 0) invalidSchema('"nullable" cannot be used without "type"');
  if (types.includes("null") && s.nullable === false) invalidSchema('type: null contradicts nullable: false');
}

/** Resolves a `#/a/b` JSON Pointer (RFC 6901, URI-fragment encoded) in `root`; undefined when it names nothing. */
function pointer(root: Schema, ref: string): unknown {
  if (ref === "#") return root;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, token)) return undefined;
    at = (at as Record<string, unknown>)[token];
  }
  return at;
}
