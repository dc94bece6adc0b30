import type { z } from "zod";
import { AppError, toAppError } from "../errors.js";
import { log } from "../logger.js";
import type { AnyAction } from "./action.js";
import type { Catalog } from "./catalog.js";
import type { ServiceDeps } from "./deps.js";
import type { Principal } from "./principal.js";
import { reaches, resolveProject } from "./project-access.js";

/** One dispatch: what a transport hands the service. */
export interface ActionCall {
  action: unknown;
  input?: unknown;
  /** Project named by the caller (header, query or transport binding). */
  projectId?: string | undefined;
}

export interface ActionResult {
  action: string;
  result: unknown;
}

/**
 * Runs actions from the catalog: resolves the project, checks access with
 * the caller's live level, validates the input once, runs, and turns every
 * failure into an `AppError`. Every transport goes through here.
 */
export class Service {
  constructor(
    readonly deps: ServiceDeps,
    readonly catalog: Catalog,
  ) {}

  async invoke(principal: Principal, call: ActionCall): Promise<ActionResult> {
    try {
      return await this.#invoke(principal, call);
    } catch (err) {
      const e = toAppError(err);
      if (e.status >= 500) log.error("action failed", { action: String(call.action), error: err });
      throw e;
    }
  }

  async #invoke(principal: Principal, call: ActionCall): Promise<ActionResult> {
    if (typeof call.action !== "string" || call.action === "") throw new AppError("action_required");
    const action = this.catalog.get(call.action);
    if (!action) throw new AppError("unknown_action");
    const access = await resolveProject(this.deps.db, principal, call.projectId);
    if (!mayCall(action, principal) || !reaches(access.level, action.access)) {
      throw new AppError("action_not_available");
    }
    const input = validate(action, call.input);
    const result = await action.run(input, { deps: this.deps, principal, projectId: access.projectId, level: access.level });
    return { action: action.name, result };
  }
}

function mayCall(action: AnyAction, principal: Principal): boolean {
  if (principal.via === "local") return true;
  return (action.tiers ?? ["standard"]).includes(principal.tier);
}

function validate(action: AnyAction, raw: unknown): unknown {
  const parsed = (action.input as z.ZodType).safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new AppError("invalid_input", { message: `invalid input: ${where}${issue?.message ?? "does not match"}` });
}
