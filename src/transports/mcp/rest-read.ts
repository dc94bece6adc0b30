import { AppError } from "../../errors.js";
import type { Page } from "../../core/paging.js";
import type { McpContext } from "./context.js";

/** The parts of a REST call a read names: path parameters and query strings, as the HTTP binder hands them over. */
export interface RestInput {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
}

/**
 * Runs a REST endpoint, by its name (`files.get`, `cells.list`, …), as the
 * session's caller in `projectId`: the same pipeline, input and checks as
 * the HTTP route, so a resource read and a REST read answer alike. A paged
 * endpoint answers its `Page` (`rows`, `nextCursor`). An endpoint the app
 * does not serve is 404 `not found`.
 */
export async function runEndpoint(ctx: McpContext, name: string, projectId: string, input: RestInput = {}): Promise<unknown> {
  const endpoint = ctx.endpoints.find((e) => e.name === name);
  if (!endpoint) throw new AppError("not_found");
  const { principal } = ctx.caller();
  const query = Object.fromEntries(Object.entries(input.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  return ctx.service.run(endpoint, {
    caller: { principal },
    projectId,
    input: () => ({ params: { projectId, ...input.params }, query, body: undefined }),
  });
}

/** A paged REST read: its rows and the cursor of the next page (empty on the last). */
export async function runPage<T>(ctx: McpContext, name: string, projectId: string, input: RestInput = {}): Promise<Page<T>> {
  return (await runEndpoint(ctx, name, projectId, input)) as Page<T>;
}

/** The session's project: the one it is bound to, else the caller's own (a key bound to one project). */
export async function sessionProject(ctx: McpContext): Promise<string> {
  const { principal, projectId } = ctx.caller();
  if (projectId) return projectId;
  return (await ctx.service.resolveScope(principal, undefined)).projectId;
}
