/**
 * Fills a caller's schema from the answer's rows with no model. Every field
 * is matched against clauses of prose by its name (split as an identifier)
 * and its description; a typed value is read from the best clause that is
 * evidence for it and holds a value of the field's type that the field's
 * own schema accepts; the cells read are cited. A field no clause speaks to
 * is left out (or `null` where required and nullable): nothing is invented.
 */
import type { CallerSchema } from "../memory/caller-schema.js";
import { carriedMatch, isEvidence, matchClause, matchScore } from "./clause-match.js";
import type { ClauseMatch } from "./clause-match.js";
import { codeKey, codeValues } from "./code-defaults.js";
import type { CodeValue } from "./code-defaults.js";
import { clausesOf, sectionHeadings } from "./evidence-text.js";
import type { Clause, EvidenceRow } from "./evidence-text.js";
import { fieldTerms } from "./field-terms.js";
import type { FieldTerms } from "./field-terms.js";
import { stringSpans, valueLike } from "./string-span.js";
import { datesIn, fieldUnit, FORMAT_TOKENS, formatTokensIn, inUnit, isoDuration, numbersIn, timesIn } from "./typed-values.js";
import type { NumberFound } from "./typed-values.js";
import { identifierParts } from "../query-terms.js";

type Schema = Record<string, unknown>;

/** A structured answer: the value, the cells each field was read from, and the required fields no row answered. */
export interface StructuredAnswer {
  /** An object conforming to the caller's schema, or null when the evidence cannot fill its required fields. */
  structured: unknown;
  /** JSON Pointer of each filled field → the cellIds it was read from. */
  citations: Record<string, string[]>;
  /** Required fields no returned row gave evidence for (set only when `structured` is null). */
  missing?: string[];
}

const MAX_FIELDS = 64;
const MAX_DEPTH = 4;
/** Clauses tried per field, best match first. */
const CANDIDATES = 12;
/** The standing of a literal a declaration header writes for the field's exact name: prose naming the field whole (2 and more) outranks it. */
const CODE_VALUE_SCORE = 1.8;
/** A string span weaker than this (a passive "is copied", a span repeating the field's words) is no answer. */
const MIN_SPAN_QUALITY = 0.5;
/** Rows read at most: an answer holds a few dozen; a huge budget must not make filling slow. */
const MAX_ROWS = 200;

/** One call's clauses, citations, missing fields and validators. */
interface Fill {
  clauses: Clause[];
  /** The heading clause of each row's section, by cellId: a heading naming the field whole carries its match to the rows under it. */
  headings: Map<string, Clause>;
  /** Clause indices by the stems, compound parts and dash-less spellings of their words: a field reads only clauses that hold one of its words. */
  byWord: Map<string, number[]>;
  /** Clause indices of each row, in order. */
  byCell: Map<string, number[]>;
  /** The rows under each heading row. */
  under: Map<string, string[]>;
  /** Literals declaration headers write for a name, by code key (see code-defaults.ts). */
  code: Map<string, CodeValue[]>;
  query: string;
  cites: Record<string, string[]>;
  missing: string[];
  prepared: CallerSchema;
}

/** Fills `prepared`'s schema from `rows` (see the module note). */
export function fillExtractive(prepared: CallerSchema, query: string, rows: readonly EvidenceRow[]): StructuredAnswer {
  const clauses = rows.slice(0, MAX_ROWS).flatMap((r, i) => clausesOf(r, i));
  const headingRows = sectionHeadings(rows.slice(0, MAX_ROWS));
  const headings = new Map<string, Clause>();
  for (const [cellId, h] of headingRows) {
    const clause = clausesOf(h, rows.indexOf(h))[0];
    if (clause) headings.set(cellId, clause);
  }
  const byWord = new Map<string, number[]>();
  const byCell = new Map<string, number[]>();
  clauses.forEach((c, i) => {
    byCell.set(c.cellId, [...(byCell.get(c.cellId) ?? []), i]);
    const keys = new Set(c.words.flatMap((w) => [w.stem, w.lower.replace(/[-_]/g, ""), ...w.parts]));
    for (const k of keys) byWord.set(k, [...(byWord.get(k) ?? []), i]);
  });
  const under = new Map<string, string[]>();
  for (const [cellId, h] of headings) under.set(h.cellId, [...(under.get(h.cellId) ?? []), cellId]);
  const code = codeValues(rows.slice(0, MAX_ROWS));
  const ctx: Fill = { clauses, headings, byWord, byCell, under, code, query, cites: {}, missing: [], prepared };
  const root = prepared.schema;
  const value = fillNode(root, undefined, ctx, "", [], 0);
  if (value !== undefined && prepared.validator(root)(value)) return { structured: value, citations: ctx.cites };
  return { structured: null, citations: {}, missing: ctx.missing.length > 0 ? ctx.missing : [""] };
}

/** Follows `$ref`s (within the document) and picks the first non-null branch of a nullable `anyOf`/`oneOf`, to learn what a field is. */
function shapeOf(s: Schema, root: Schema, hops = 0): Schema {
  if (typeof s.$ref === "string" && hops < 16) {
    const target = resolve(root, s.$ref);
    if (target) return shapeOf({ ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== "$ref")) }, root, hops + 1);
  }
  if (s.type === undefined && !s.properties && !s.items && !Array.isArray(s.enum)) {
    const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : []) as Schema[];
    const branch = branches.find((b) => typeof b === "object" && b !== null && b.type !== "null");
    if (branch) return shapeOf({ ...branch, description: s.description ?? branch.description }, root, hops + 1);
  }
  return s;
}

function resolve(root: Schema, ref: string): Schema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, token)) return undefined;
    at = (at as Record<string, unknown>)[token];
  }
  return typeof at === "object" && at !== null && !Array.isArray(at) ? (at as Schema) : undefined;
}

function typeOf(s: Schema): string {
  const t = s.type;
  if (Array.isArray(t)) return (t.find((x) => x !== "null") as string | undefined) ?? "null";
  if (typeof t === "string") return t;
  if (s.properties) return "object";
  if (s.items) return "array";
  if (Array.isArray(s.enum)) {
    const kinds = new Set((s.enum as unknown[]).filter((e) => e !== null).map((e) => typeof e));
    return kinds.size === 1 ? ([...kinds][0] === "number" ? "number" : [...kinds][0]!) : "string";
  }
  return "string";
}

function allowsNull(s: Schema): boolean {
  return s.type === "null" || (Array.isArray(s.type) && s.type.includes("null")) || s.nullable === true || (Array.isArray(s.anyOf) && (s.anyOf as Schema[]).some((b) => b?.type === "null"));
}

/** Sets an own property even for a field named `__proto__` (plain assignment would set the prototype). */
function setOwn(o: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
}

function fillNode(raw: Schema, name: string | undefined, ctx: Fill, path: string, context: string[], depth: number): unknown {
  const s = shapeOf(raw, ctx.prepared.schema);
  const type = typeOf(s);
  if (type === "object") return fillObject(s, name, ctx, path, context, depth);
  // A schema that is one value, not an object of fields, is about what the question asks.
  const terms = name === undefined ? fieldTerms("", typeof s.description === "string" ? `${s.description} ${ctx.query}` : ctx.query, ctx.query, context) : fieldTerms(name, s.description, ctx.query, context);
  name ??= "";
  if (type === "array") return fillArray(s, raw, name, terms, ctx, path);
  const hit = bestScalar(s, raw, type, name, terms, ctx);
  if (!hit) return undefined;
  ctx.cites[path || "/"] = hit.cells;
  return hit.value;
}

function fillObject(s: Schema, name: string | undefined, ctx: Fill, path: string, context: string[], depth: number): unknown {
  const props = (typeof s.properties === "object" && s.properties !== null ? s.properties : {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const inner = name === undefined ? context : [...context, ...identifierParts(name)];
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(props).slice(0, MAX_FIELDS)) {
    const v = depth < MAX_DEPTH && typeof sub === "object" && sub !== null ? fillNode(sub, key, ctx, `${path}/${key}`, inner, depth + 1) : undefined;
    if (v !== undefined) setOwn(out, key, v);
    else if (required.has(key)) {
      if (allowsNull(sub)) setOwn(out, key, null);
      else ctx.missing.push(`${path}/${key}`);
    }
  }
  // A nested object with nothing found is left out, like any field without evidence.
  if (name !== undefined && Object.keys(out).length === 0) return undefined;
  return out;
}

/** A clause with its match to the field, its standing, and the heading its match came from (cited with it). */
interface Candidate {
  clause: Clause;
  match: ClauseMatch;
  score: number;
  heading?: string;
}

/** Clauses that are evidence for the field, best first. */
function candidates(terms: FieldTerms, ctx: Fill): Candidate[] {
  const firstMatches = new Map<string, ClauseMatch>();
  const firstMatch = (cellId: string): ClauseMatch | undefined => {
    if (!firstMatches.has(cellId)) {
      const first = ctx.byCell.get(cellId)?.[0];
      if (first !== undefined) firstMatches.set(cellId, matchClause(ctx.clauses[first]!, terms));
    }
    return firstMatches.get(cellId);
  };
  const out: Candidate[] = [];
  for (const i of pool(terms, ctx)) {
    const clause = ctx.clauses[i]!;
    let match = matchClause(clause, terms);
    if (clause.index > 0) match = carriedMatch(match, firstMatch(clause.cellId), terms);
    let heading: string | undefined;
    const section = ctx.headings.get(clause.cellId);
    if (!isEvidence(match, terms) && section) {
      // Only a heading naming the whole field (every name word) speaks for the rows under it: "Contacts" for `contact`.
      const h = matchClause(section, terms);
      if (h.whole || h.name >= 0.99) {
        match = { ...carriedMatch(match, h, terms), name: h.name * 0.7, description: h.description * 0.7 };
        heading = section.cellId;
      }
    }
    if (!isEvidence({ ...match, name: match.carried && heading ? 1 : match.name }, terms)) continue;
    out.push({ clause, match, score: matchScore(match, clause.rank), ...(heading ? { heading } : {}) });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, CANDIDATES);
}

/**
 * The clauses a field can find evidence in: those holding one of its name
 * or description words (or its whole name), the other clauses of their rows
 * (a row's first clause carries to the rest), and the rows under a heading
 * that holds one; in answer order.
 */
function pool(terms: FieldTerms, ctx: Fill): number[] {
  const cells = new Set<string>();
  for (const key of [...terms.name, ...terms.description, terms.whole.replace(/[-_]/g, "")]) {
    for (const i of ctx.byWord.get(key) ?? []) cells.add(ctx.clauses[i]!.cellId);
  }
  for (const cell of [...cells]) for (const u of ctx.under.get(cell) ?? []) cells.add(u);
  return [...cells].flatMap((cell) => ctx.byCell.get(cell) ?? []).sort((a, b) => a - b);
}

/** The cells a value was read from: the clause's row, and the heading that named the field when the row itself does not. */
function cellsOf(c: Candidate): string[] {
  return c.heading ? [c.heading, c.clause.cellId] : [c.clause.cellId];
}

interface Hit {
  value: unknown;
  cells: string[];
}

/** The best value over the candidate clauses: match standing plus how sure the value's reading is; valid for the field's own schema. */
function bestScalar(s: Schema, raw: Schema, type: string, name: string, terms: FieldTerms, ctx: Fill): Hit | undefined {
  const valid = ctx.prepared.validator(raw);
  let best: { value: unknown; score: number; cells: string[] } | undefined;
  for (const c of candidates(terms, ctx)) {
    for (const v of valuesIn(s, type, name, c)) {
      if (!valid(v.value)) continue;
      const score = c.score + v.quality;
      if (!best || score > best.score) best = { value: v.value, score, cells: cellsOf(c) };
    }
  }
  // A literal a declaration writes for exactly this name: below any prose that names the field whole.
  for (const v of ctx.code.get(codeKey(name)) ?? []) {
    if (!valid(v.value)) continue;
    const score = CODE_VALUE_SCORE - Math.min(v.rank, 50) * 0.004;
    if (!best || score > best.score) best = { value: v.value, score, cells: [v.cellId] };
  }
  return best && { value: best.value, cells: best.cells };
}

/** A value read from a clause and how sure the reading is (0–1.5). */
interface Reading {
  value: unknown;
  quality: number;
}

/** Distance in characters from a span to the nearest of the field's words in the clause (0 for a carried match: the row is about the field). */
function distance(c: Candidate, start: number, end: number): number {
  if (c.match.at.length === 0) return 0;
  return Math.min(...c.match.at.map((i) => {
    const w = c.clause.words[i]!;
    return start >= w.end ? start - w.end : w.start >= end ? w.start - end : 0;
  }));
}

/** Nearer the field's words reads surer: 0.5 when adjacent, falling off over about 60 characters. */
function nearness(c: Candidate, start: number, end: number): number {
  return 0.5 / (1 + distance(c, start, end) / 20);
}

/** A clause's numbers, read once per call however many fields look at it. */
const clauseNumbers = new WeakMap<Clause, NumberFound[]>();
function numbersOf(clause: Clause): NumberFound[] {
  let found = clauseNumbers.get(clause);
  if (!found) {
    found = numbersIn(clause.text);
    clauseNumbers.set(clause, found);
  }
  return found;
}

/** Every value of the field's type the clause holds, each with its quality. */
function valuesIn(s: Schema, type: string, name: string, c: Candidate): Reading[] {
  const text = c.clause.text;
  if (Array.isArray(s.enum)) return enumValues(s.enum as unknown[], c);
  if (type === "number" || type === "integer") {
    const unit = fieldUnit(identifierParts(name), typeof s.description === "string" ? s.description : "");
    return numbersOf(c.clause).flatMap((n) => {
      const value = inUnit(n, unit);
      if (value === undefined || (type === "integer" && !Number.isInteger(value))) return [];
      const unitBonus = unit && n.unit ? 0.3 : 0;
      return [{ value, quality: nearness(c, n.start, n.end) + unitBonus }];
    });
  }
  if (type === "boolean") return booleanOf(c);
  if (type !== "string") return [];
  const format = typeof s.format === "string" ? s.format : undefined;
  if (format === "date") return datesIn(text).map((d) => ({ value: d.value, quality: nearness(c, d.start, d.end) }));
  if (format === "date-time") return datesIn(text).flatMap((d) => (d.dateTime ? [{ value: d.dateTime, quality: nearness(c, d.start, d.end) }] : []));
  if (format === "time") return timesIn(text).map((t) => ({ value: t.value, quality: nearness(c, t.start, t.end) }));
  if (format === "duration") {
    return numbersOf(c.clause).flatMap((n) => {
      const iso = isoDuration(n);
      return iso ? [{ value: iso, quality: nearness(c, n.start, n.end) }] : [];
    });
  }
  if (format && Object.hasOwn(FORMAT_TOKENS, format)) {
    return formatTokensIn(format, text).map((t) => ({ value: t.value, quality: nearness(c, t.start, t.end) + 0.2 }));
  }
  return stringSpans(c.clause, c.match, name)
    .filter((span) => span.quality >= MIN_SPAN_QUALITY)
    .map((span) => ({ value: span.text, quality: span.quality }));
}

/** Enum values the clause writes as words (case and identifier spelling aside), nearest the field's words and right after a copula first. */
function enumValues(values: readonly unknown[], c: Candidate): Reading[] {
  const text = c.clause.text.toLowerCase();
  const out: Reading[] = [];
  for (const v of values) {
    if (typeof v !== "string" && typeof v !== "number") continue;
    const spelled = [String(v).toLowerCase(), identifierParts(String(v)).join(" ")];
    for (const form of new Set(spelled)) {
      if (!form || !text.includes(form)) continue;
      const re = new RegExp(`(?<![\\p{L}\\p{N}_-])${form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_-])`, "u");
      const m = re.exec(text);
      if (!m) continue;
      const before = text.slice(Math.max(0, m.index - 16), m.index);
      const copula = /\b(?:is|are|was|defaults? to|set to|equals)\s+$|[:=]\s*$/.test(before) ? 0.4 : 0;
      out.push({ value: v, quality: nearness(c, m.index, m.index + m[0].length) + copula });
      break;
    }
  }
  return out;
}

/** Negations that turn a statement about the field false. */
const NEGATION = /\b(?:not|no|never|none|cannot|without|neither|nor|disabled?|off|false|unsupported)\b|n't\b/i;
/** Statements that say yes outright. */
const AFFIRMATION = /\b(?:enabled?|true|on|yes|always|supported|required|allowed)\b/i;

/**
 * A boolean from the polarity of a clause that names the field: true unless
 * a negation is written in it. Only a clause holding every word of the
 * field's name (or its whole name) may answer: a statement must be about
 * the field itself to say yes or no to it.
 */
function booleanOf(c: Candidate): Reading[] {
  if (!(c.match.whole || c.match.name >= 0.99 || c.match.description >= 0.6)) return [];
  const negated = NEGATION.test(c.clause.text);
  return [{ value: !negated, quality: negated || AFFIRMATION.test(c.clause.text) ? 0.4 : 0.2 }];
}

/**
 * An array field: items read from the best clause that holds any (a list
 * written in one sentence: "Node 18, 20 and 22"), for plain string items
 * the clause's enumeration after the field's words; the clause's cell is
 * cited. Arrays of objects or arrays are left out: one clause rarely states
 * whole records, and stitching them from several would be guessing.
 */
function fillArray(s: Schema, raw: Schema, name: string, terms: FieldTerms, ctx: Fill, path: string): unknown {
  const items = shapeOf((typeof s.items === "object" && s.items !== null && !Array.isArray(s.items) ? s.items : {}) as Schema, ctx.prepared.schema);
  const itemRaw = (typeof s.items === "object" && s.items !== null && !Array.isArray(s.items) ? s.items : {}) as Schema;
  const max = typeof s.maxItems === "number" ? s.maxItems : 20;
  const itemType = typeOf(items);
  const validItem = ctx.prepared.validator(itemRaw);
  const valid = ctx.prepared.validator(raw);
  if (itemType === "object" || itemType === "array") return undefined;
  for (const c of candidates(terms, ctx)) {
    const values = listValues(items, itemType, name, c);
    const kept: unknown[] = [];
    for (const v of values) if (kept.length < max && validItem(v) && !kept.some((k) => JSON.stringify(k) === JSON.stringify(v))) kept.push(v);
    if (kept.length > 0 && valid(kept)) {
      ctx.cites[path || "/"] = cellsOf(c);
      return kept;
    }
  }
  return undefined;
}

/** The values of a clause for an array's items, in the order written. */
function listValues(items: Schema, itemType: string, name: string, c: Candidate): unknown[] {
  if (itemType !== "string" || Array.isArray(items.enum) || typeof items.format === "string") {
    const readings = valuesIn(items, itemType, name, c);
    return readings.map((r) => r.value);
  }
  // Strings: the enumeration after the field's words, split at commas and "and"/"or".
  const after = c.match.at.length > 0 ? c.clause.text.slice(c.clause.words[Math.max(...c.match.at)]!.end) : c.clause.text;
  const list = after.replace(/^[\s:]*(?:(?:are|is|include|includes|by default|default|defaults to)\s+)*/i, "");
  const parts = list.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).map((p) => p.trim().replace(/[.;]+$/, "")).filter(Boolean);
  const short = parts.filter((p) => p.split(/\s+/).length <= 3);
  return short.length >= 2 && short.length === parts.length ? short : short.filter(valueLike).length >= 2 ? short.filter(valueLike) : [];
}
