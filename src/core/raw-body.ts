import { z } from "zod";
import { AppError } from "../errors.js";

/**
 * A JSON request body left unparsed: its bytes as they came. Decoding and
 * parsing a body of megabytes takes the serving thread hundreds of
 * milliseconds (a 22 MB ingest call: 100–480 ms to decode, 120–400 ms to
 * parse, on a quiet host), and every other caller waits that long; an
 * endpoint that declares `rawJsonAbove` gets a body larger than that as
 * one of these, and parses and validates it off the serving thread with
 * the same checks (`validate`) and errors as the pipeline's. The bytes are
 * a private field: the pipeline's walk over the raw input does not see them.
 */
export class RawJsonBody {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  get bytes(): Uint8Array {
    return this.#bytes;
  }
}

/**
 * A body schema that lets a `RawJsonBody` through as it is, for the handler
 * to parse and check with `schema` itself, and checks any other body with
 * `schema`, its issues (paths, messages, the spec's error codes) unchanged.
 */
export function parsedOrRaw<S extends z.ZodType>(schema: S) {
  return z.unknown().transform((body, ctx): z.output<S> | RawJsonBody => {
    if (body instanceof RawJsonBody) return body;
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: body } as never);
    return z.NEVER;
  });
}

/** A UTF-8 JSON object, or 400 `invalid request body`. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new AppError("invalid_request_body");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new AppError("invalid_request_body");
  return value as Record<string, unknown>;
}
