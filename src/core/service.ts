import { z } from "zod";
import { authenticateKey, authenticateSession } from "../access/authenticate.js";
import type { RateLimiter } from "../access/rate-limit.js";
import { AppError, toAppError } from "../errors.js";
import { log } from "../logger.js";
import type { Db } from "../store/db.js";
import type { AnyAction } from "./action.js";
import type { Catalog } from "./catalog.js";
import type { Credential, Operation, RunContext, Sampler } from "./endpoint.js";
import { taskPrincipal } from "../access/principal.js";
import type { Principal } from "../access/principal.js";
import { reaches, resolveScope } from "./scope.js";
import type { Scope } from "./scope.js";
import type { TaskRequest, Tools } from "./tools.js";
import { validate } from "./validate-input.js";

/** Who is calling: already known (stdio, an open MCP session), or an `Authorization` header to check. */
export type Caller =
  | { readonly principal: Principal }
  /** `address`: the peer's network address, where the transport knows it; refused credentials are counted per address. */
  | { readonly authorization: string | undefined; readonly address?: string | undefined };

/** One call of an operation, as a transport hands it over. */
export interface Call {
  readonly caller: Caller;
  /** The project the caller named (path, header, query or transport binding). */
  readonly projectId?: string | undefined;
  /** The raw input, read only once the caller is admitted (a refused caller's body is never read). */
  readonly input: () => unknown;
  /** The calling client's model, when it lends one (MCP sampling). */
  readonly sampler?: Sampler | undefined;
}

/** A task kind's work, run by the pipeline with the validated input and the call's context. */
export type TaskHandler = (input: unknown, ctx: RunContext, recheck: () => Promise<void>) => Promise<unknown>;

export interface ServiceOptions {
  readonly db: Db;
  readonly tools: Tools;
  readonly catalog: Catalog;
  /** The rate limit every admitted request and refused credential counts against (decided in memory). */
  readonly rateLimit: RateLimiter;
  /** Check every answer against the operation's output schema (tests turn this on). */
  readonly checkOutput?: boolean;
}

/**
 * The one pipeline every REST endpoint, dispatched action and MCP tool runs
 * through: authenticate → rate limit → resolve scope → tier → level →
 * validate → run → map errors. Transports only read the wire and write the
 * answer; nothing else decides who may do what.
 */
export class Service {
  readonly db: Db;
  readonly tools: Tools;
  readonly catalog: Catalog;
  readonly #rateLimit: RateLimiter;
  readonly #checkOutput: boolean;

  constructor(options: ServiceOptions) {
    this.db = options.db;
    this.tools = options.tools;
    this.catalog = options.catalog;
    this.#rateLimit = options.rateLimit;
    this.#checkOutput = options.checkOutput ?? false;
  }

  /** Runs one operation for one call; every failure comes out as an `AppError`. */
  async run(op: Operation, call: Call): Promise<unknown> {
    try {
      return await this.#run(op, call);
    } catch (err) {
      const e = toAppError(err);
      if (e.status >= 500) log.error("operation failed", { operation: op.name, error: err });
      throw e;
    }
  }

  /**
   * Admits an HTTP request: authenticates its `Authorization` header with
   * one of the credentials the operation accepts, then counts it against
   * the caller's rate limit.
   */
  async admit(authorization: string | undefined, accepted: readonly Credential[] = ["key"], address?: string): Promise<Principal> {
    const principal = await this.authenticate(authorization, accepted, address);
    await this.count(principal);
    return principal;
  }

  /**
   * Counts one request that does work against the caller's rate limit (429
   * over it). `/mcp` authenticates every request but counts only these:
   * the client's protocol housekeeping costs nothing and must not fail.
   */
  async count(principal: Principal): Promise<void> {
    this.#rateLimit.countRequest(principal);
  }

  /** The scope of a caller in a named project (MCP sessions bind one at initialize). */
  resolveScope(principal: Principal, projectId: string | undefined): Promise<Scope> {
    return resolveScope(this.db, principal, projectId);
  }

  /**
   * Dispatches one action by name for a known caller (MCP `tools/call`,
   * `pks call`): `{action, result}` as REST dispatch answers it.
   */
  async invoke(
    principal: Principal,
    call: { action: unknown; input?: unknown; projectId?: string | undefined; sampler?: Sampler | undefined },
  ): Promise<{ action: string; result: unknown }> {
    const action = this.action(call.action);
    const result = await this.run(action, { caller: { principal }, projectId: call.projectId, input: () => call.input ?? {}, sampler: call.sampler });
    return { action: action.name, result };
  }

  /** Looks an action up by name: 400 `action is required`, 404 `unknown action`. */
  action(name: unknown): AnyAction {
    if (typeof name !== "string" || name === "") throw new AppError("action_required");
    const action = this.catalog.get(name);
    if (!action) throw new AppError("unknown_action");
    return action;
  }

  /**
   * Runs a detached task of an action by name, through this same pipeline:
   * the queuing user's live scope in the task's project, the action's tier
   * and level, its input validated by its own schema — then `handler` (the task kind's work) in place of the
   * action's own run, which queued the task. A caller who lost access
   * between queuing and running is refused here, whatever the kind.
   * `recheck` runs the scope and level checks again, for work that waits
   * long (a fetch) before it stores anything.
   */
  async runTask(task: TaskRequest, handler: TaskHandler): Promise<unknown> {
    const action = this.action(task.kind);
    const principal = taskPrincipal(task.userId);
    const recheck = async (): Promise<void> => {
      await this.#admitted(action, principal, task.projectId);
    };
    // The result is the task's, not the action's answer (which was the queued task).
    const op: Operation = { ...action, output: z.unknown(), run: (input, ctx) => handler(input, ctx, recheck) };
    // Failures come out as thrown (an abort stays an abort): the task worker stores an AppError's message and logs and hides the rest.
    return this.#run(op, { caller: { principal }, projectId: task.projectId, input: () => task.input });
  }

  async #run(op: Operation, call: Call): Promise<unknown> {
    const principal = "principal" in call.caller ? call.caller.principal : await this.admit(call.caller.authorization, op.auth, call.caller.address);
    const scope = await this.#admitted(op, principal, call.projectId);
    const input = validate(op.input, await call.input());
    const result = await op.run(input, context(this.db, principal, scope, this.tools, op.name, call.sampler));
    if (this.#checkOutput) checkOutput(op, result);
    return result;
  }

  /** Resolves the scope, then checks the key tier and the level: who may run `op` in the named project. */
  async #admitted(op: Operation, principal: Principal, projectId: string | undefined): Promise<Scope | undefined> {
    const scope = op.access === "none" ? undefined : await resolveScope(this.db, principal, projectId);
    if (!mayCall(op, principal)) throw new AppError("action_not_available");
    if (scope && op.access !== "none" && !reaches(scope.level, op.access)) throw new AppError(op.denied ?? "editor_access_required");
    return scope;
  }

  /**
   * The caller of an HTTP request, by the credentials the operation accepts;
   * not counted (see `count`). A refused credential (401) is counted against
   * the peer's `address`, when known, under the same limit: past it 429 with
   * `Retry-After`, so guessing keys costs a client as much as using one.
   */
  async authenticate(authorization: string | undefined, accepted: readonly Credential[] = ["key"], address?: string): Promise<Principal> {
    try {
      return await this.#credentials(authorization, accepted);
    } catch (err) {
      if (address !== undefined && err instanceof AppError && err.status === 401) {
        this.#rateLimit.countRefusal(address);
      }
      throw err;
    }
  }

  #credentials(authorization: string | undefined, accepted: readonly Credential[]): Promise<Principal> {
    const session = accepted.includes("session");
    const key = accepted.includes("key");
    if (session && (!key || /^bearer\s+pkss_/i.test(authorization?.trim() ?? ""))) {
      return authenticateSession(this.db, authorization, new Date(this.tools.clock()));
    }
    return authenticateKey(this.db, authorization);
  }
}

/** Key tiers: a `submit` key reaches only what lists it; the local owner reaches everything. */
function mayCall(op: Operation, principal: Principal): boolean {
  if (principal.via === "local") return true;
  return (op.tiers ?? ["standard"]).includes(principal.tier);
}

function context(db: Db, principal: Principal, scope: Scope | undefined, tools: Tools, name: string, sampler: Sampler | undefined): RunContext {
  return {
    db,
    principal,
    tools,
    sampler,
    get scope(): Scope {
      if (!scope) throw new Error(`${name} names no project`);
      return scope;
    },
  };
}

/** An answer that breaks its own output schema is a server bug: 500, logged with the first issue. */
function checkOutput(op: Operation, result: unknown): void {
  const paged = (op as { reply?: string }).reply === "page";
  const value = paged ? (result as { rows: unknown }).rows : result;
  const parsed = op.output.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${op.name} answered outside its output schema at ${issue?.path.join(".") ?? ""}: ${issue?.message ?? ""}`);
  }
}
