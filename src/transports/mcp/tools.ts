import { z } from "zod";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CreateMessageResultSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, ContentBlock, ResourceLink, ServerNotification, ServerRequest, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Principal } from "../../access/principal.js";
import type { AnswerLink } from "../../core/action.js";
import type { Sampler } from "../../core/endpoint.js";
import type { ActionDescription } from "../../core/catalog.js";
import { log } from "../../logger.js";
import { toAppError } from "../../errors.js";
import type { McpContext, McpFeature } from "./context.js";
import { withinResultLimit } from "./result-limit.js";

/**
 * Tools are the action catalog. `tools/call` runs through the same
 * `Service.invoke` as REST, so results and errors carry the same JSON:
 * `structuredContent` is exactly the REST body (`{action, result}`, or the
 * error envelope with `isError: true`), and each tool's `outputSchema`
 * describes both. Protocol mistakes — no tool name, an unknown tool,
 * arguments that are not an object — are JSON-RPC errors (-32602); every
 * failure of the call itself is a tool result a model can read.
 */
export const toolsFeature: McpFeature = {
  capabilities: { tools: { listChanged: false } },
  register(server, ctx) {
    const tools = ctx.catalog.describe().map(toTool);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    // Protocol's registration, not Server's: Server's own parses the request
    // with the SDK schema first and answers a missing name with a dump of
    // zod issues. This one hands the raw params to `checkParams`, which
    // answers every malformed call with one sentence.
    const register = Protocol.prototype.setRequestHandler as (
      this: Server,
      schema: typeof callRequest,
      handler: (request: z.output<typeof callRequest>, extra: Extra) => Promise<CallToolResult>,
    ) => void;
    register.call(server, callRequest, (request, extra) => callTool(ctx, request.params, extra, samplerOf(server, extra)));
  },
};

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The client's model, when the client declared `sampling` at initialize:
 * one `sampling/createMessage` request sent as part of this call (over HTTP
 * it travels on the call's own stream), its text answer returned. What the
 * model says is checked by whoever asked it.
 */
function samplerOf(server: Server, extra: Extra): Sampler | undefined {
  if (!server.getClientCapabilities()?.sampling) return undefined;
  return {
    async complete({ system, prompt, maxTokens, timeoutMs }) {
      const params = { messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt } }], systemPrompt: system, maxTokens, includeContext: "none" as const };
      const result = await extra.sendRequest({ method: "sampling/createMessage", params }, CreateMessageResultSchema, { timeout: timeoutMs, signal: extra.signal });
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    },
  };
}

/** A `tools/call` request as far as routing needs it; its params are checked by `checkParams`. */
const callRequest = z.object({ method: z.literal("tools/call"), params: z.unknown().optional() });

/** How often a followed task is read, and how long a call may stay open following one. */
const FOLLOW_POLL_MS = 250;
const FOLLOW_LIMIT_MS = 10 * 60_000;
/** Links one answer carries at most; the text and `structuredContent` hold everything anyway. */
const MAX_LINKS = 100;
const FINAL_STATUSES = new Set(["succeeded", "failed", "cancelled"]);

/** A JSON-RPC error carried as is: the SDK sends `code` and `message` of what a handler throws. */
class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface CallParams {
  name: string;
  args: Record<string, unknown>;
  progressToken: string | number | undefined;
}

/** The params of a `tools/call`, or -32602 with one sentence saying what is wrong. */
function checkParams(raw: unknown, ctx: McpContext): CallParams {
  const names = () => ctx.catalog.list().map((a) => a.name).join(", ");
  const params = isObject(raw) ? raw : {};
  const name = params.name;
  if (typeof name !== "string" || name === "") {
    throw new ProtocolError(ErrorCode.InvalidParams, `tools/call needs params.name, the tool to call (one of: ${names()})`);
  }
  if (!ctx.catalog.get(name)) throw new ProtocolError(ErrorCode.InvalidParams, `unknown tool "${name}"; tools: ${names()}`);
  const args = params.arguments ?? {};
  if (!isObject(args)) throw new ProtocolError(ErrorCode.InvalidParams, `params.arguments of ${name} must be an object of its arguments`);
  const meta = isObject(params._meta) ? params._meta : {};
  const token = meta.progressToken;
  const progressToken = typeof token === "string" || typeof token === "number" ? token : undefined;
  return { name, args, progressToken };
}

/** A call, kept within the result limit (see `withinResultLimit`): a tool that packs to a budget is given one that fits. */
async function callTool(ctx: McpContext, raw: unknown, extra: Extra, sampler: Sampler | undefined): Promise<CallToolResult> {
  const params = checkParams(raw, ctx);
  const action = ctx.catalog.get(params.name)!;
  const properties = (ctx.catalog.describe().find((a) => a.name === params.name)?.inputSchema.properties ?? {}) as Record<string, { maximum?: number }>;
  const budget = Object.hasOwn(properties, "budget") ? properties.budget : undefined;
  const limit = { maxTokens: ctx.maxResultTokens, count: ctx.service.tools.tokens, budgeted: !action.detached && budget !== undefined, budgetCeiling: budget?.maximum };
  return withinResultLimit(params.args, limit, (args) => callOnce(ctx, { ...params, args }, extra, sampler));
}

async function callOnce(ctx: McpContext, params: CallParams, extra: Extra, sampler: Sampler | undefined): Promise<CallToolResult> {
  const { name, args, progressToken } = params;
  const { service } = ctx;
  const action = ctx.catalog.get(name)!;
  const report = progressToken === undefined ? undefined : reporter(extra, progressToken);
  try {
    const { principal, projectId } = ctx.caller();
    if (!action.detached) await report?.({ progress: 0, total: 1, message: `${name} started` });
    const body = await service.invoke(principal, { action: name, input: args, projectId, sampler });
    const project = () => projectId ?? service.resolveScope(principal, projectId).then((s) => s.projectId);
    const links = action.links?.(body.result) ?? [];
    if (!action.detached || !report) {
      await report?.({ progress: 1, total: 1, message: `${name} done` });
      return answer(body, links, project);
    }
    const taskId = (body.result as { taskId: string }).taskId;
    const task = await followTask(ctx, principal, taskId, report, extra.signal);
    if (extra.signal.aborted && !FINAL_STATUSES.has(task?.status ?? "queued")) await cancelFollowed(ctx, principal, taskId);
    return answer(body, [...links, ...taskLinks(task)], project, task);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    const envelope = toAppError(err).toEnvelope();
    return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], structuredContent: envelope };
  }
}

/** A task as `GET /v1/tasks/{taskId}` answers it, as far as following it needs. */
interface TaskSnapshot {
  taskId: string;
  status: string;
  progress: { done: number; total: number };
  result?: unknown;
  error?: string;
}

/**
 * Follows a detached action's task until it ends, reporting its progress:
 * the task is read through the pipeline as `GET /v1/tasks/{taskId}` reads
 * it, every 250 ms, for at most ten minutes or until the client cancels the
 * call. Progress counts the task's steps (`done` of `total`) and then its
 * end, so the last notification says how it ended. A failure to read it
 * ends the following, never the call (the task was queued; the client can
 * still poll it).
 */
async function followTask(ctx: McpContext, principal: Principal, taskId: string, report: Report, signal: AbortSignal): Promise<TaskSnapshot | undefined> {
  const endpoint = ctx.endpoints.find((e) => e.method === "GET" && e.path === "/v1/tasks/:taskId");
  await report({ progress: 0, message: `task ${taskId} queued` });
  if (!endpoint) return undefined;
  const until = Date.now() + FOLLOW_LIMIT_MS;
  let task: TaskSnapshot | undefined;
  while (!signal.aborted) {
    try {
      task = (await ctx.service.run(endpoint, { caller: { principal }, input: () => ({ params: { taskId } }) })) as TaskSnapshot;
    } catch {
      return task;
    }
    const { done, total } = task.progress;
    const final = FINAL_STATUSES.has(task.status);
    // The task's steps and then its end: the end is always one more than any step, so it is always reported.
    const steps = Math.max(done, total) + 1;
    await report({ progress: final ? steps : done, total: steps, message: `task ${taskId} ${task.status}${total > 0 ? `: ${done} of ${total}` : ""}` });
    if (final || Date.now() >= until) return task;
    await sleep(FOLLOW_POLL_MS, signal);
  }
  return task;
}

/**
 * The client cancelled a call that followed a task (`notifications/cancelled`):
 * the call was the task, so the task is cancelled too, through the pipeline
 * as `POST /v1/tasks/{taskId}/cancel` with the caller's own access. Nothing
 * is answered to a cancelled call, so a refusal is only logged.
 */
async function cancelFollowed(ctx: McpContext, principal: Principal, taskId: string): Promise<void> {
  const endpoint = ctx.endpoints.find((e) => e.method === "POST" && e.path === "/v1/tasks/:taskId/cancel");
  if (!endpoint) return;
  try {
    await ctx.service.run(endpoint, { caller: { principal }, input: () => ({ params: { taskId } }) });
  } catch (error) {
    log.warn("cancelling a followed task failed", { taskId, error });
  }
}

type Report = (p: { progress: number; total?: number; message?: string }) => Promise<void>;

/**
 * Sends `notifications/progress` for one call. Progress must increase with
 * each notification, so a report that would not is skipped; a notification
 * that cannot be sent never fails the call.
 */
function reporter(extra: Extra, progressToken: string | number): Report {
  let last = -1;
  return async (p) => {
    if (p.progress <= last) return;
    last = p.progress;
    await extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...p } }).catch(() => undefined);
  };
}

/** The links a finished task's result points at: a document's file, an artifact. */
function taskLinks(task: TaskSnapshot | undefined): AnswerLink[] {
  const result = task?.status === "succeeded" && isObject(task.result) ? task.result : {};
  const links: AnswerLink[] = [];
  if (typeof result.fileId === "string") links.push({ kind: "file", id: result.fileId, name: result.fileId });
  if (typeof result.artifactId === "string") {
    links.push({ kind: "artifact", id: result.artifactId, name: typeof result.title === "string" ? result.title : result.artifactId });
  }
  return links;
}

/**
 * A successful call: the REST body as `structuredContent` and as text; a
 * followed task as it ended, as text and in `_meta`; then a `resource_link`
 * per thing the answer points at.
 */
async function answer(
  body: { action: string; result: unknown },
  links: readonly AnswerLink[],
  project: () => string | Promise<string>,
  task?: TaskSnapshot,
): Promise<CallToolResult> {
  const content: ContentBlock[] = [{ type: "text", text: JSON.stringify(body) }];
  if (task) content.push({ type: "text", text: JSON.stringify({ task }) });
  const unique = [...new Map(links.map((l) => [`${l.kind}/${l.id}`, l])).values()].slice(0, MAX_LINKS);
  if (unique.length > 0) {
    const projectId = await project();
    content.push(...unique.map((l) => resourceLink(projectId, l)));
  }
  return { content, structuredContent: { ...body }, ...(task ? { _meta: { "pks/task": task } } : {}) };
}

/** Where each kind of thing is read as a resource. */
const COLLECTION: Record<AnswerLink["kind"], string> = {
  file: "files",
  cell: "cells",
  entity: "entities",
  artifact: "artifacts",
  type: "types",
};

/** `pks://projects/{projectId}/{files|cells|entities|artifacts|types}/{id}`, the URIs the resource templates serve. */
export function resourceUri(projectId: string, kind: AnswerLink["kind"], id: string): string {
  return `pks://projects/${encodeURIComponent(projectId)}/${COLLECTION[kind]}/${encodeURIComponent(id)}`;
}

function resourceLink(projectId: string, link: AnswerLink): ResourceLink {
  return {
    type: "resource_link",
    uri: resourceUri(projectId, link.kind, link.id),
    name: link.name,
    ...(link.description ? { description: link.description } : {}),
  };
}

/**
 * An action as a tool. `outputSchema` describes `structuredContent`: the
 * REST body `{action, result}` of a success, or the error envelope of a
 * result with `isError: true` — clients validate `structuredContent`
 * whenever it is present (the SDK's client does, errors included), so the
 * schema admits both.
 */
function toTool(a: ActionDescription): Tool {
  return {
    name: a.name,
    title: a.title,
    description: a.description,
    inputSchema: a.inputSchema as Tool["inputSchema"],
    outputSchema: toolOutputSchema(a) as Tool["outputSchema"],
    annotations: { title: a.title, readOnlyHint: a.readOnly, openWorldHint: false },
    _meta: { "pks/family": a.family, "pks/version": a.version, "pks/access": a.access, "pks/detached": a.detached },
  };
}

const errorEnvelopeSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: { status: { type: "integer" }, code: { type: "string" }, message: { type: "string" } },
      required: ["status", "code", "message"],
    },
  },
  required: ["error"],
};

/** The tool's `outputSchema`: an object at the root, as MCP requires, holding the action's output under `result`. */
export function toolOutputSchema(a: Pick<ActionDescription, "name" | "outputSchema">): Record<string, unknown> {
  const { $defs, ...result } = a.outputSchema;
  const success = {
    type: "object",
    properties: { action: { type: "string", const: a.name }, result },
    required: ["action", "result"],
    additionalProperties: false,
  };
  return { type: "object", anyOf: [success, errorEnvelopeSchema], ...($defs ? { $defs } : {}) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
