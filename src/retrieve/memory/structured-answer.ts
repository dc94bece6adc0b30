import type { Sampler } from "../../core/endpoint.js";
import type { EvidenceRow } from "../structured/evidence-text.js";
import { fillExtractive } from "../structured/extractive-fill.js";
import type { StructuredAnswer } from "../structured/extractive-fill.js";
import { fillBySampling } from "../structured/sampling-fill.js";
import { prepareCallerSchema } from "./caller-schema.js";

export type { StructuredAnswer } from "../structured/extractive-fill.js";
export type { EvidenceRow } from "../structured/evidence-text.js";

/** Which path filled a structured answer: the client's model (checked), or extraction from the rows. */
export type StructuredSource = "sampling" | "extractive";

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
 * is matched by its name's words and its description against the rows'
 * prose (a declaration's header is code, not evidence), and takes a typed
 * value from the best clause that speaks to it — a number (in the field's
 * unit when it names one), a date, a duration, an enum value, a format's
 * token, or the short span of a string that answers — citing the cells
 * read. A field with no evidence is left out; nothing is invented. The
 * schema is checked for this call only, and nothing of it is kept.
 */
export function synthesize(schema: Record<string, unknown>, query: string, rows: readonly EvidenceRow[]): StructuredAnswer {
  return fillExtractive(prepareCallerSchema(schema), query, rows);
}

/**
 * The structured answer of a call: with a sampler (an MCP client that lends
 * its model), the model fills the schema from the rows and the answer is
 * used only if it passes every check (sampling-fill.ts); otherwise, and
 * always over REST, the extractive fill. The schema is checked (400 on a
 * bad one) before the model is asked anything.
 */
export async function answerStructured(
  schema: Record<string, unknown>,
  query: string,
  rows: readonly EvidenceRow[],
  sampler?: Sampler,
): Promise<StructuredAnswer & { source: StructuredSource; refused?: string }> {
  const prepared = prepareCallerSchema(schema);
  let refused: string | undefined;
  if (sampler) {
    const sampled = await fillBySampling(prepared, query, rows, sampler);
    if (sampled.answer) return { ...sampled.answer, source: "sampling" };
    refused = sampled.refused;
  }
  return { ...fillExtractive(prepared, query, rows), source: "extractive", ...(refused ? { refused } : {}) };
}
