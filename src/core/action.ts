import type { z } from "zod";
import type { AccessLevel } from "../store/access/memberships.js";
import type { KeyTier } from "../store/access/api-keys.js";
import type { ServiceDeps } from "./deps.js";
import type { Principal } from "./principal.js";

/** What a running action knows about its call. */
export interface ActionContext {
  readonly deps: ServiceDeps;
  readonly principal: Principal;
  readonly projectId: string;
  /** The caller's live level in the project, read for this call. */
  readonly level: AccessLevel;
}

/**
 * One entry of the action catalog: the same definition serves MCP
 * `tools/list`/`tools/call` and REST `POST /v1/api/actions`.
 */
export interface Action<S extends z.ZodType = z.ZodType, R = unknown> {
  /** Action id, also the MCP tool name, e.g. `memory_query`. */
  readonly name: string;
  /** Endpoint family (`memory`, `code`, `document`, `artifact` …) and its version. */
  readonly family: string;
  readonly version: string;
  readonly title: string;
  readonly description: string;
  /** Input schema; validated once, before `run`. */
  readonly input: S;
  /** Lowest project access level that may call it. */
  readonly access: Exclude<AccessLevel, "owner">;
  /** Key tiers allowed to call it (default: `standard`). */
  readonly tiers?: readonly KeyTier[];
  /** True when the action changes nothing. */
  readonly readOnly: boolean;
  /** True when the action answers with a task to poll. */
  readonly detached?: boolean;
  run(input: z.output<S>, ctx: ActionContext): Promise<R>;
}

/** Identity helper that keeps the input type flowing into `run`. */
export function defineAction<S extends z.ZodType, R>(action: Action<S, R>): Action<S, R> {
  return action;
}

// A catalog holds actions of many input types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAction = Action<any, unknown>;
