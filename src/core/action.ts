import { z } from "zod";
import type { Operation } from "./endpoint.js";

/**
 * Something an answer points at, that a client can read on its own: a file,
 * a cell, an entity, an artifact, or a type's schema. MCP turns each into a
 * `resource_link` beside the answer; the answer itself is unchanged.
 */
export interface AnswerLink {
  readonly kind: "file" | "cell" | "entity" | "artifact" | "type";
  readonly id: string;
  /** A short human name: the file's path, the entity's name, the artifact's title, … */
  readonly name: string;
  readonly description?: string;
}

/**
 * One entry of the action catalog: the same definition serves MCP
 * `tools/list`/`tools/call` and REST `POST /v1/api/actions`, through the
 * same pipeline as every REST endpoint.
 */
export interface Action<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends Omit<Operation<I, O>, "denied"> {
  /** Dispatch above the caller's level is always `action not available to an API key` (set by `defineAction`). */
  readonly denied?: "action_not_available";
  /** Endpoint family (`memory`, `code`, `document`, `artifact` …) and its version. */
  readonly family: string;
  readonly version: string;
  readonly title: string;
  readonly description: string;
  readonly access: "viewer" | "editor";
  /** True when the action changes nothing. */
  readonly readOnly: boolean;
  /** True when the action answers with a task to poll. */
  readonly detached?: boolean;
  /** What an answer points at (files, cells, entities …), for transports that can link to them. */
  readonly links?: (result: z.output<O>) => readonly AnswerLink[];
}

/**
 * Defines an action. Dispatch of an action above the caller's level answers
 * 403 `action not available to an API key`, as the spec's dispatch rule
 * says, for every action alike (write endpoints keep `editor access
 * required`); an action cannot choose another. Its input refuses arguments it does not declare (a
 * misspelt or guessed argument is an error naming it and the accepted ones,
 * never silently dropped); an input that already decides what to do with
 * unknown keys keeps its own rule and message.
 */
export function defineAction<I extends z.ZodType, O extends z.ZodType>(action: Action<I, O>): Action<I, O> {
  return { ...action, denied: "action_not_available", input: strictInput(action.input) };
}

/**
 * An object schema that strips unknown keys, made to refuse them instead:
 * `unknown argument "question"; accepted: query, budget, …`. Refinements
 * and field rules are kept (zod 4 keeps checks on the cloned schema); any
 * other schema is returned as it is.
 */
export function strictInput<I extends z.ZodType>(schema: I): I {
  if (!(schema instanceof z.ZodObject)) return schema;
  const def = schema._zod.def;
  if (def.catchall !== undefined) return schema;
  const accepted = Object.keys(def.shape).join(", ");
  const previous = def.error as z.core.$ZodErrorMap | undefined;
  const error: z.core.$ZodErrorMap = (issue) => {
    if (issue.code === "unrecognized_keys") {
      const names = issue.keys.map((k) => JSON.stringify(k)).join(", ");
      return `unknown argument${issue.keys.length > 1 ? "s" : ""} ${names}; accepted: ${accepted || "none"}`;
    }
    return previous?.(issue);
  };
  return schema.clone({ ...def, catchall: z.never(), error: error as typeof def.error }) as unknown as I;
}

// A catalog holds actions of many input and output types.
export type AnyAction = Action<z.ZodType, z.ZodType>;
