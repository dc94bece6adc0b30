import type { z } from "zod";
import type { Operation } from "./endpoint.js";

/**
 * One entry of the action catalog: the same definition serves MCP
 * `tools/list`/`tools/call` and REST `POST /v1/api/actions`, through the
 * same pipeline as every REST endpoint.
 */
export interface Action<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends Operation<I, O> {
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
}

/** Identity helper that keeps the input type flowing into `run`. */
export function defineAction<I extends z.ZodType, O extends z.ZodType>(action: Action<I, O>): Action<I, O> {
  return { denied: "action_not_available", ...action };
}

// A catalog holds actions of many input and output types.
export type AnyAction = Action<z.ZodType, z.ZodType>;
