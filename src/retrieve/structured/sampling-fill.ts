/**
 * Fills a caller's schema with the caller's own model (MCP sampling), from
 * the answer's rows only, and trusts nothing it says unchecked: the reply
 * must be JSON `{structured, citations}`; `structured` must conform to the
 * caller's schema (the same per-request validator as the extractive path:
 * an interpreter with ajv's verdicts, see caller-schema.ts for why nothing
 * is compiled); every filled field must be cited; every cited cellId must
 * be one of the rows shown; and each cited cell must support its value (a
 * string or number appears in it, written as is or normalised: grouping
 * commas, a date in another spelling, a number in words or another unit;
 * an enum value appears as a word; a boolean's cell names the field). Any
 * failure — no reply, a timeout, bad JSON, a schema miss, a foreign or
 * unsupported citation — gives `undefined` and the reason, and the caller
 * falls back to the extractive path.
 */
import type { Sampler } from "../../core/endpoint.js";
import type { CallerSchema } from "../memory/caller-schema.js";
import { identifierParts } from "../query-terms.js";
import { isEvidence, matchClause } from "./clause-match.js";
import { clausesOf } from "./evidence-text.js";
import type { EvidenceRow } from "./evidence-text.js";
import type { StructuredAnswer } from "./extractive-fill.js";
import { fieldTerms } from "./field-terms.js";
import { datesIn, isoDuration, numbersIn, timesIn } from "./typed-values.js";

/** How long the client's model may take, and how much it may write. */
export const SAMPLING_LIMITS = { timeoutMs: 30_000, maxTokens: 1500, rows: 60, promptChars: 24_000 } as const;

const SYSTEM = [
  "You fill a JSON object that conforms to a JSON Schema, using only the numbered evidence rows you are given.",
  'Answer with JSON only, no prose: {"structured": <the object>, "citations": {"<JSON Pointer of each filled field, e.g. /owner>": ["<cellId>", ...]}}.',
  "Leave out every field the rows do not state; never guess or use outside knowledge.",
  "Keep string values short: the words of the row that answer, not the whole sentence.",
  "Each value must appear in the rows it cites (numbers and dates may be normalised).",
].join(" ");

export type SamplingOutcome = { answer: StructuredAnswer } | { answer?: undefined; refused: string };

/** Asks the sampler to fill the schema from `rows`; the checked answer, or why it was refused. */
export async function fillBySampling(prepared: CallerSchema, query: string, rows: readonly EvidenceRow[], sampler: Sampler): Promise<SamplingOutcome> {
  const shown = shownRows(rows);
  if (shown.length === 0) return { refused: "no rows to fill from" };
  let reply: string;
  try {
    reply = await sampler.complete({ system: SYSTEM, prompt: promptOf(prepared.schema, query, shown), maxTokens: SAMPLING_LIMITS.maxTokens, timeoutMs: SAMPLING_LIMITS.timeoutMs });
  } catch (err) {
    return { refused: `the client's model did not answer: ${err instanceof Error ? err.message : String(err)}` };
  }
  return checkReply(prepared, reply, shown);
}

/** The rows shown to the model: in rank order, as many as fit the prompt's size. */
function shownRows(rows: readonly EvidenceRow[]): EvidenceRow[] {
  const out: EvidenceRow[] = [];
  let chars = 0;
  for (const r of rows.slice(0, SAMPLING_LIMITS.rows)) {
    chars += r.text.length + r.cellId.length + 8;
    if (chars > SAMPLING_LIMITS.promptChars) break;
    out.push(r);
  }
  return out;
}

function promptOf(schema: unknown, query: string, rows: readonly EvidenceRow[]): string {
  const lines = rows.map((r) => `[${r.cellId}] ${r.text.replace(/\s+/g, " ")}`);
  return `Question: ${query}\n\nJSON Schema:\n${JSON.stringify(schema)}\n\nRows (cellId in brackets):\n${lines.join("\n")}\n\nAnswer with the JSON object only.`;
}

/** The reply's JSON object: the whole text, or the first fenced or braced block in it. */
function parseReply(reply: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply)?.[1];
  for (const text of [reply, fenced, reply.slice(reply.indexOf("{"), reply.lastIndexOf("}") + 1)]) {
    if (!text) continue;
    try {
      return JSON.parse(text);
    } catch {
      /* try the next reading */
    }
  }
  return undefined;
}

/** The checks of the module note, in order; the first that fails names the refusal. */
export function checkReply(prepared: CallerSchema, reply: string, rows: readonly EvidenceRow[]): SamplingOutcome {
  const parsed = parseReply(reply);
  if (!isObject(parsed) || !("structured" in parsed)) return { refused: "the reply is not JSON {structured, citations}" };
  const structured = withoutNulls(parsed.structured, prepared.schema);
  const citations = parsed.citations ?? {};
  if (!isObject(citations) || !Object.values(citations).every((v) => Array.isArray(v) && v.every((id) => typeof id === "string"))) {
    return { refused: "citations is not an object of cellId lists" };
  }
  if (!prepared.validator(prepared.schema)(structured)) return { refused: "structured does not conform to the schema" };
  const byId = new Map(rows.map((r) => [r.cellId, r]));
  const cites: Record<string, string[]> = {};
  for (const [pointer, value] of leaves(structured, "")) {
    const cited = citationOf(citations as Record<string, string[]>, pointer);
    if (!cited || cited.ids.length === 0) return { refused: `${pointer} is not cited` };
    const unknown = cited.ids.find((id) => !byId.has(id));
    if (unknown !== undefined) return { refused: `${pointer} cites ${JSON.stringify(unknown)}, which is not a returned row` };
    const texts = cited.ids.map((id) => byId.get(id)!);
    if (!supports(texts, value, pointer)) return { refused: `the cells cited for ${pointer} do not hold its value` };
    cites[cited.pointer] = [...new Set([...(cites[cited.pointer] ?? []), ...cited.ids])];
  }
  return { answer: { structured, citations: cites } };
}

/** Drops `null` fields the schema does not require (the model's way of saying "not stated"), so they need no citation. */
function withoutNulls(value: unknown, schema: Record<string, unknown>): unknown {
  if (!isObject(value)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const props = isObject(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null && !required.has(k)) continue;
    const sub = props[k];
    Object.defineProperty(out, k, { value: isObject(sub) ? withoutNulls(v, sub) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Every filled scalar of a value with its JSON Pointer (array items as `/list/0` …); nulls carry no claim. */
function leaves(value: unknown, pointer: string): Array<[string, unknown]> {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${pointer}/${i}`));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => leaves(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  return [[pointer || "/", value]];
}

/** The citation of a leaf: its own pointer, or the nearest enclosing field's (an array cited as a whole). */
function citationOf(citations: Record<string, string[]>, pointer: string): { pointer: string; ids: string[] } | undefined {
  for (let p = pointer; p !== ""; p = p.slice(0, p.lastIndexOf("/"))) if (Object.hasOwn(citations, p)) return { pointer: p, ids: citations[p]! };
  return Object.hasOwn(citations, "/") ? { pointer: "/", ids: citations["/"]! } : undefined;
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[`'"“”‘’]/g, "").replace(/\s+/g, " ").trim();
}

/** Whether the cited rows hold a value, as written or normalised (see the module note). */
function supports(rows: readonly EvidenceRow[], value: unknown, pointer: string): boolean {
  const text = rows.map((r) => r.text).join("\n");
  if (typeof value === "number") {
    const plain = text.replace(/(\d),(?=\d{3}\b)/g, "$1");
    if (new RegExp(`(?<![\\d.])${String(value).replace(".", "\\.")}(?![\\d])`).test(plain)) return true;
    return numbersIn(text).some((n) => n.value === value || (n.unit !== undefined && [0.001, 1, 60, 3600, 86_400, 1024, 1024 ** 2, 1024 ** 3].some((f) => Math.abs((n.value * n.unit!.factor) / f - value) < 1e-6)));
  }
  if (typeof value === "string") {
    const wanted = squash(value).replace(/[.,;:!?]+$/, "");
    if (wanted === "") return false;
    if (squash(text).includes(wanted)) return true;
    const dated = [...datesIn(text).flatMap((d) => [d.value, d.dateTime]), ...timesIn(text).map((t) => t.value), ...numbersIn(text).map(isoDuration)];
    return dated.includes(value);
  }
  if (typeof value === "boolean") {
    const field = pointer.split("/").filter((p) => p && !/^\d+$/.test(p)).at(-1) ?? "";
    const terms = fieldTerms(field, undefined, "");
    return rows.some((r, i) => clausesOf(r, i).some((c) => isEvidence(matchClause(c, terms), terms))) || identifierParts(field).length === 0;
  }
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
