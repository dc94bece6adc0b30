/** Validating an operation's raw input once (the pipeline's step, and the accept thread's for a large ingest body: see raw-body.ts). */
import type { z } from "zod";
import { AppError } from "../errors.js";

/**
 * Validates raw input once. A refinement may name the spec's error for its
 * case (`params.appError`), or give a message meant to stand alone
 * (`params.bare`); anything else is 400 `invalid input: <path>: <why>`.
 * Arguments the input does not declare are reported first (an action's
 * input refuses them, see `strictInput`): a misspelt name explains the
 * errors that follow from it.
 */
export function validate(schema: z.ZodType, raw: unknown): unknown {
  refuseUnsafeShapes(raw);
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const { issues } = parsed.error;
  const issue = issues.find((i) => i.code === "unrecognized_keys" && i.path.length === 0) ?? issues[0];
  const params = issue?.code === "custom" ? (issue.params as { appError?: string; bare?: boolean } | undefined) : undefined;
  if (params?.appError) throw new AppError(params.appError as never);
  if (params?.bare) throw new AppError("invalid_input", { message: issue!.message });
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new AppError("invalid_input", { message: `invalid input: ${where}${issue?.message ?? "does not match"}` });
}

/** Deepest nesting an input may have: far past any schema's own, and far short of what exhausts the stack when a handler serialises it. */
export const INPUT_DEPTH_MAX = 100;

/**
 * Walks the raw input once, without recursion, and refuses:
 *
 * - an own `__proto__` key anywhere (JSON.parse makes one from
 *   `{"__proto__": …}`). Parsing into objects drops it without a word, so a
 *   record or a schema would lose a value its sender thinks is stored; a
 *   clear 400 says so instead;
 * - objects or arrays nested deeper than {@link INPUT_DEPTH_MAX} levels.
 *   JSON.parse reads any depth, but `JSON.stringify` and every recursive
 *   walk after it overflow the stack at a few thousand, which would be a 500.
 */
function refuseUnsafeShapes(raw: unknown): void {
  // No path in the message: a dispatched action's input sits inside the dispatch body, and the path of one is not the other's.
  const stack: Array<{ value: unknown; depth: number }> = [{ value: raw, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    // Raw bytes (a chunk upload's body) hold no names: Object.values of a typed array lists its every byte (4.5 s for 1 MB at load 14).
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) continue;
    if (depth >= INPUT_DEPTH_MAX) throw new AppError("invalid_input", { message: `invalid input: nested deeper than ${INPUT_DEPTH_MAX} levels` });
    if (Object.hasOwn(value, "__proto__")) throw new AppError("invalid_input", { message: 'invalid input: "__proto__" is not accepted as a name' });
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
}

