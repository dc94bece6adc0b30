import type { CompleteResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpContext, McpFeature } from "./context.js";
import { findPrompt, promptDefinitions } from "./prompts.js";
import type { CompletionKind } from "./prompts.js";
import { fromAppError, handleRequest, invalidParams, isObject } from "./protocol-error.js";
import type { RawParams } from "./protocol-error.js";
import { RESOURCE_TEMPLATES } from "./resources.js";
import { runPage, sessionProject } from "./rest-read.js";

/** Values one completion answers at most (MCP's limit). */
export const MAX_COMPLETIONS = 100;
/** Characters of a value to complete, at most. */
const MAX_VALUE = 256;

type Completion = CompleteResult["completion"];

/** What completes each variable of the resource templates. */
type TemplateVariable = "projectId" | "fileId" | "entityId" | "typeId" | "artifactId" | "none";

function templateVariable(template: string, variable: string): TemplateVariable {
  if (variable === "projectId") return "projectId";
  if (template.includes("/files/") && variable === "fileId") return "fileId";
  if (template.includes("/entities/") && variable === "entityId") return "entityId";
  if (template.includes("/types/") && variable === "entityId") return "typeId";
  if (template.includes("/artifacts/") && variable === "artifactId") return "artifactId";
  return "none";
}

/** The first 100 distinct values; `hasMore` when some were left out (here or by the read), else their `total`. */
function cut(values: readonly string[], more = false): Completion {
  const distinct = [...new Set(values)];
  const hasMore = more || distinct.length > MAX_COMPLETIONS;
  return { values: distinct.slice(0, MAX_COMPLETIONS), hasMore, ...(hasMore ? {} : { total: distinct.length }) };
}

/** Declared names starting with (then containing) the value, through `code_references` as the session's caller. */
async function symbols(ctx: McpContext, projectId: string, value: string): Promise<Completion> {
  const { principal } = ctx.caller();
  const { result } = await ctx.service.invoke(principal, { action: "code_references", input: { query: value, limit: 200 }, projectId });
  const page = result as { references: Array<{ symbol: string; kind: string }>; more: boolean };
  const declared = page.references.filter((r) => r.kind === "declaration").map((r) => r.symbol);
  const used = page.references.map((r) => r.symbol);
  return cut([...declared, ...used], page.more);
}

/** Entity names best matching the value (`entities?q=`): exact name, then prefix, then the most words. */
async function entityRows(ctx: McpContext, projectId: string, value: string) {
  const query = value.trim() === "" ? { limit: "200" } : { q: value, limit: "200" };
  return runPage<{ entityId: string; name: string }>(ctx, "entities.list", projectId, { query });
}

/** Live files under the value as a path prefix (`files?path=`, one page of 200 by id), sorted by path. */
async function filePaths(ctx: McpContext, projectId: string, value: string) {
  const page = await runPage<{ fileId: string; path: string }>(ctx, "files.list", projectId, { query: { path: value || undefined, limit: "200" } });
  return { ...page, rows: page.rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

async function forPromptArgument(ctx: McpContext, projectId: string, kind: CompletionKind | undefined, value: string): Promise<Completion> {
  switch (kind) {
    case "symbol":
      return symbols(ctx, projectId, value);
    case "entity": {
      const page = await entityRows(ctx, projectId, value);
      return cut(page.rows.map((e) => e.name), page.nextCursor !== "");
    }
    case "path": {
      const page = await filePaths(ctx, projectId, value);
      return cut(page.rows.map((f) => f.path), page.nextCursor !== "");
    }
    default:
      return cut([]);
  }
}

async function forTemplateVariable(ctx: McpContext, projectId: string, variable: TemplateVariable, value: string): Promise<Completion> {
  const lower = value.toLowerCase();
  switch (variable) {
    case "projectId":
      return cut(projectId.startsWith(value) ? [projectId] : []);
    case "fileId": {
      // Ids are opaque: the value is read as a path prefix, and the ids of the files under it are the completions.
      if (value.startsWith("fil_")) return cut([]);
      const page = await filePaths(ctx, projectId, value);
      return cut(page.rows.map((f) => f.fileId), page.nextCursor !== "");
    }
    case "entityId": {
      const page = await entityRows(ctx, projectId, value);
      return cut(page.rows.map((e) => e.entityId), page.nextCursor !== "");
    }
    case "typeId": {
      const page = await runPage<{ entityId: string; name: string }>(ctx, "entities.list", projectId, { query: { entityType: "Category", limit: "200" } });
      const rows = page.rows.filter((e) => e.entityId.startsWith(value) || e.name.toLowerCase().includes(lower));
      return cut(rows.map((e) => e.entityId), page.nextCursor !== "");
    }
    case "artifactId": {
      const page = await runPage<{ artifactId: string; title: string }>(ctx, "artifacts.list", projectId, { query: { limit: "200" } });
      const rows = page.rows.filter((a) => a.artifactId.startsWith(value) || a.title.toLowerCase().includes(lower));
      return cut(rows.map((a) => a.artifactId), page.nextCursor !== "");
    }
    case "none":
      return cut([]);
  }
}

/**
 * `completion/complete`: values for a prompt's argument (symbol names,
 * entity names, file paths, as the prompt file declares) or a resource
 * template's variable (a file's id by path prefix, an entity's by name, a
 * type's or an artifact's by name or id prefix, the session's project).
 * Reads run through the pipeline as the session's caller in its project.
 * At most 100 values; `hasMore` says some were left out.
 */
export async function complete(ctx: McpContext, params: RawParams): Promise<CompleteResult> {
  const { ref, argument } = params;
  if (!isObject(ref) || (ref.type !== "ref/prompt" && ref.type !== "ref/resource")) {
    throw invalidParams('params.ref must be {"type": "ref/prompt", "name"} or {"type": "ref/resource", "uri"}');
  }
  if (!isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
    throw invalidParams("params.argument must be {name, value}, both strings");
  }
  if (argument.value.length > MAX_VALUE) throw invalidParams(`params.argument.value must be at most ${MAX_VALUE} characters`);
  const { name, value } = argument;
  let run: (projectId: string) => Promise<Completion>;
  if (ref.type === "ref/prompt") {
    const prompt = typeof ref.name === "string" ? findPrompt(ref.name) : undefined;
    if (!prompt) throw invalidParams(`unknown prompt "${String(ref.name)}"; prompts: ${promptDefinitions().map((p) => p.name).join(", ")}`);
    const arg = prompt.arguments.find((a) => a.name === name);
    if (!arg) throw invalidParams(`unknown argument "${name}" for prompt ${prompt.name}; accepted: ${prompt.arguments.map((a) => a.name).join(", ")}`);
    run = (projectId) => forPromptArgument(ctx, projectId, arg.complete, value);
  } else {
    const template = RESOURCE_TEMPLATES.find((t) => t.uriTemplate === ref.uri);
    if (!template) throw invalidParams(`unknown resource template "${String(ref.uri)}"; templates: ${RESOURCE_TEMPLATES.map((t) => t.uriTemplate).join(", ")}`);
    if (!template.uriTemplate.includes(`{${name}}`)) throw invalidParams(`resource template ${template.uriTemplate} has no variable "${name}"`);
    run = (projectId) => forTemplateVariable(ctx, projectId, templateVariable(template.uriTemplate, name), value);
  }
  try {
    return { completion: await run(await sessionProject(ctx)) };
  } catch (err) {
    throw fromAppError(err);
  }
}

/** Completions of prompt arguments and resource template variables. */
export const completionsFeature: McpFeature = {
  capabilities: { completions: {} },
  register(server, ctx) {
    handleRequest(server, "completion/complete", (params) => complete(ctx, params));
  },
};
