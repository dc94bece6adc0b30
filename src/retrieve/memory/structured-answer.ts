import { identifierParts, queryTerms } from "../query-terms.js";
import { prepareCallerSchema } from "./caller-schema.js";

type Schema = Record<string, unknown>;
type Evidence = { cellId: string; text: string };

export interface StructuredAnswer {
  /** An object conforming to the caller's schema, or null when the evidence cannot fill its required fields. */
  structured: unknown;
  /** JSON Pointer of each filled field → the cellIds it was taken from. */
  citations: Record<string, string[]>;
  /** Required fields no returned row gave evidence for (set only when `structured` is null). */
  missing?: string[];
}

const MAX_FIELDS = 64;
const MAX_DEPTH = 4;

/**
 * A validator for the caller's JSON Schema, its own to this call (see
 * caller-schema.ts: caps, same-document `$ref`s only, patterns on RE2), or
 * 400 when it is not one or is over a cap. Nothing is kept after the call.
 */
export function compileSchema(schema: unknown): (value: unknown) => boolean {
  const prepared = prepareCallerSchema(schema);
  return prepared.validator(prepared.schema);
}

/**
 * Fills the schema from the returned rows alone, with no model: each field
 * takes the best-matching row's text (or a number, date, URL, e-mail or enum
 * value found in it), cites that row, and is left out (or null where the
 * schema allows) when no row speaks to it. Nothing is invented. The schema
 * is checked for this call only, and nothing of it is kept afterwards.
 */
export function synthesize(schema: Schema, query: string, rows: readonly Evidence[]): StructuredAnswer {
  const prepared = prepareCallerSchema(schema);
  const validate = prepared.validator(prepared.schema);
  const ctx: Fill = { rows, cites: {}, missing: [], validators: prepared.validator };
  const value = fill(prepared.schema, { field: [], query: queryTerms(query) }, ctx, "", 0);
  if (value !== undefined && validate(value)) return { structured: value, citations: ctx.cites };
  return { structured: null, citations: {}, missing: ctx.missing.length > 0 ? ctx.missing : [""] };
}

/** Terms of the field itself (name, description) and of the whole query. */
interface Terms {
  field: string[];
  query: string[];
}

/** One call's rows, what it has cited and found missing, and its validators (one per field schema; `$ref`s resolve in the whole document). */
interface Fill {
  rows: readonly Evidence[];
  cites: Record<string, string[]>;
  missing: string[];
  validators: (s: Schema) => (v: unknown) => boolean;
}

function fill(s: Schema, terms: Terms, ctx: Fill, path: string, depth: number): unknown {
  const type = typeOf(s);
  if (type === "object") return fillObject(s, terms, ctx, path, depth);
  if (type === "array") return fillArray(s, terms, ctx, path);
  const hit = bestScalar(s, type, terms, ctx.rows, ctx.validators(s));
  if (!hit) return undefined;
  ctx.cites[path || "/"] = [hit.cellId];
  return hit.value;
}

function fillObject(s: Schema, terms: Terms, ctx: Fill, path: string, depth: number): unknown {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(props).slice(0, MAX_FIELDS)) {
    const field = [...identifierParts(name), ...queryTerms(String(sub.description ?? ""))];
    const v = depth < MAX_DEPTH ? fill(sub, { field, query: terms.query }, ctx, `${path}/${name}`, depth + 1) : undefined;
    if (v !== undefined) setOwn(out, name, v);
    else if (required.has(name)) {
      if (allowsNull(sub)) setOwn(out, name, null);
      else ctx.missing.push(`${path}/${name}`);
    }
  }
  return out;
}

/** Sets an own property even for a field named `__proto__` (plain assignment would set the prototype). */
function setOwn(o: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
}

function fillArray(s: Schema, terms: Terms, ctx: Fill, path: string): unknown {
  const items = (s.items ?? {}) as Schema;
  const max = typeof s.maxItems === "number" ? s.maxItems : 5;
  const itemType = typeOf(items);
  const valid = ctx.validators(items);
  const ranked = rankRows(terms, ctx.rows, false).slice(0, max * 3);
  const values: unknown[] = [];
  const used: string[] = [];
  for (const r of ranked) {
    if (values.length >= max) break;
    const hit = bestScalar(items, itemType, { field: [], query: [] }, [r], valid);
    if (!hit || values.some((v) => v === hit.value)) continue;
    values.push(hit.value);
    used.push(r.cellId);
  }
  if (values.length === 0) return undefined;
  ctx.cites[path || "/"] = used;
  return values;
}

/**
 * The first row, best first, that yields a value valid for the field's own
 * schema. A plain-text field needs a row that names the field; a typed one
 * (number, enum, date, e-mail, URL) may take its value from any row the
 * query found, since the type itself is the evidence.
 */
function bestScalar(s: Schema, type: string, terms: Terms, rows: readonly Evidence[], valid: (v: unknown) => boolean): { value: unknown; cellId: string } | undefined {
  const typed = type !== "string" || Array.isArray(s.enum) || typeof s.format === "string";
  const candidates = terms.field.length + terms.query.length > 0 ? rankRows(terms, rows, !typed).slice(0, 20) : rows;
  for (const r of candidates) {
    const value = scalarFrom(s, type, r.text);
    if (value !== undefined && valid(value)) return { value, cellId: r.cellId };
  }
  return undefined;
}

function scalarFrom(s: Schema, type: string, text: string): unknown {
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).find((e) => typeof e === "string" && text.toLowerCase().includes(e.toLowerCase()));
  if (type === "number" || type === "integer") {
    const m = text.match(type === "integer" ? /-?\d[\d,]*/ : /-?\d[\d,]*(?:\.\d+)?/);
    return m ? Number(m[0].replace(/,/g, "")) : undefined;
  }
  if (type === "string") {
    const format = s.format;
    if (format === "date") return text.match(/\b\d{4}-\d{2}-\d{2}\b/)?.[0];
    if (format === "email") return text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/)?.[0];
    if (format === "uri" || format === "url") return text.match(/https?:\/\/[^\s)>"]+/)?.[0]?.replace(/[.,;:!?]+$/, "");
    return typeof s.maxLength === "number" ? text.slice(0, s.maxLength) : text;
  }
  return undefined;
}

/**
 * Rows ordered by field-term hits (twice) plus query-term hits, ties in
 * retrieval order; with `needField`, only rows naming the field qualify.
 */
function rankRows(terms: Terms, rows: readonly Evidence[], needField: boolean): Evidence[] {
  const scored = rows.map((r, i) => {
    const words = new Set(queryTerms(r.text).flatMap((w) => [w, w.replace(/s$/, "")]));
    const field = terms.field.filter((t) => words.has(t)).length;
    const query = terms.query.filter((t) => words.has(t)).length;
    return { r, i, field, score: 2 * field + query };
  });
  const qualified = scored.filter((x) => (needField && terms.field.length > 0 ? x.field > 0 : x.score > 0 || terms.field.length + terms.query.length === 0));
  return qualified.sort((a, b) => b.score - a.score || a.i - b.i).map((x) => x.r);
}

function typeOf(s: Schema): string {
  const t = s.type;
  if (Array.isArray(t)) return (t.find((x) => x !== "null") as string) ?? "null";
  if (typeof t === "string") return t;
  if (s.properties) return "object";
  if (s.items) return "array";
  return Array.isArray(s.enum) ? "string" : "string";
}

function allowsNull(s: Schema): boolean {
  return s.type === "null" || (Array.isArray(s.type) && s.type.includes("null")) || s.nullable === true;
}
