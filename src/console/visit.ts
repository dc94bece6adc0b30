import type { Principal } from "../access/principal.js";
import type { Operation } from "../core/endpoint.js";
import type { Page } from "../core/paging.js";
import type { Service } from "../core/service.js";

/** Raw input of a REST endpoint: what the HTTP binding would hand the pipeline. */
export interface EndpointInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/**
 * One signed-in person's calls during one console request. Every read and
 * every change goes through the service pipeline as the session's
 * principal — scope, tier, level and input validation run exactly as for a
 * REST call — by the endpoint's or action's name: the console has no other
 * way to the data, so a viewer is refused here exactly as over REST.
 */
export class Visit {
  readonly service: Service;
  readonly principal: Principal;
  readonly projectId: string | undefined;
  /** The caller's live level in the project (read once for showing controls; every call checks again). */
  readonly level: string | undefined;
  readonly #operations: ReadonlyMap<string, Operation>;

  constructor(options: { service: Service; operations: ReadonlyMap<string, Operation>; principal: Principal; projectId?: string; level?: string }) {
    this.service = options.service;
    this.principal = options.principal;
    this.projectId = options.projectId;
    this.level = options.level;
    this.#operations = options.operations;
  }

  /** Whether the page should offer changes (the pipeline decides anyway). */
  get canEdit(): boolean {
    return this.level === "editor" || this.level === "owner";
  }

  get isOwner(): boolean {
    return this.level === "owner";
  }

  /** Runs a REST endpoint by name; the project's id fills `params.projectId`. */
  async call<T>(name: string, input: EndpointInput = {}): Promise<T> {
    const op = this.#operations.get(name);
    if (!op) throw new Error(`the console names an unknown endpoint ${name}`);
    const params = this.projectId ? { projectId: this.projectId, ...input.params } : { ...input.params };
    const query = Object.fromEntries(Object.entries(input.query ?? {}).filter(([, v]) => v !== undefined && v !== ""));
    return (await this.service.run(op, {
      caller: { principal: this.principal },
      projectId: this.projectId,
      input: () => ({ params, query, body: input.body, project: this.projectId }),
    })) as T;
  }

  /** Runs a paged REST endpoint by name. */
  page<T>(name: string, input: EndpointInput = {}): Promise<Page<T>> {
    return this.call<Page<T>>(name, input);
  }

  /** Dispatches a catalog action by name, as `POST /v1/api/actions` would. */
  async act<T>(action: string, input: Record<string, unknown>): Promise<T> {
    const { result } = await this.service.invoke(this.principal, { action, input, projectId: this.projectId });
    return result as T;
  }
}
