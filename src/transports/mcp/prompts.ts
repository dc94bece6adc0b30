import { z } from "zod";
import type { GetPromptResult, Prompt, PromptMessage } from "@modelcontextprotocol/sdk/types.js";
import { readPromptFile } from "../../prompts.js";
import type { McpContext, McpFeature } from "./context.js";
import { fromAppError, handleRequest, invalidParams, isObject } from "./protocol-error.js";
import type { RawParams } from "./protocol-error.js";
import { runEndpoint, runPage, sessionProject } from "./rest-read.js";

/** The prompt files of `prompts/`, in the order `prompts/list` gives them. */
export const PROMPT_FILES = ["explain-symbol.md", "plan-change.md", "summarize-document.md", "about-entity.md"] as const;

/** Characters one argument value may hold. */
export const MAX_ARGUMENT_LENGTH = 4000;

/** What completes an argument's value (see completions): declared names, entity names, file paths. */
export const COMPLETION_KINDS = ["symbol", "entity", "path"] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];

const argumentShape = z.object({
  name: z.string().regex(/^[a-z][a-zA-Z0-9_]*$/),
  description: z.string().min(1),
  required: z.boolean().default(false),
  /** Where `completion/complete` finds values for it. */
  complete: z.enum(COMPLETION_KINDS).optional(),
  /** `file`: the value (a path or a fileId) is looked up, and the body may use `{{arg.path}}`, `{{arg.fileId}}`, `{{arg.uri}}`. */
  resolve: z.literal("file").optional(),
});

const frontMatter = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  title: z.string().min(1),
  description: z.string().min(1),
  arguments: z.array(argumentShape).default([]),
});

/** A prompt as its file declares it: front matter (name, title, description, arguments) and the body template. */
export interface PromptDefinition extends z.infer<typeof frontMatter> {
  body: string;
}

let loaded: readonly PromptDefinition[] | undefined;

/**
 * The prompts, read once from their Markdown files. A file whose front
 * matter is wrong stops the server at its first use with the file's name:
 * a prompt is shipped text, so its mistakes are the server's.
 */
export function promptDefinitions(): readonly PromptDefinition[] {
  loaded ??= PROMPT_FILES.map((file) => {
    const { meta, body } = readPromptFile(file);
    const parsed = frontMatter.safeParse(meta);
    if (!parsed.success) throw new Error(`prompts/${file}: front matter ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
    return { ...parsed.data, body };
  });
  return loaded;
}

export function findPrompt(name: string): PromptDefinition | undefined {
  return promptDefinitions().find((p) => p.name === name);
}

function toPrompt(p: PromptDefinition): Prompt {
  return {
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
  };
}

const names = () => promptDefinitions().map((p) => p.name).join(", ");

/** The arguments of a `prompts/get`, checked against the prompt's declaration; -32602 with one sentence otherwise. */
export function checkArguments(prompt: PromptDefinition, raw: unknown): Record<string, string> {
  if (raw !== undefined && !isObject(raw)) throw invalidParams(`params.arguments of ${prompt.name} must be an object of strings`);
  const given = raw ?? {};
  const accepted = prompt.arguments.map((a) => a.name);
  for (const key of Object.keys(given)) {
    if (!accepted.includes(key)) {
      throw invalidParams(`unknown argument "${key}" for prompt ${prompt.name}; accepted: ${accepted.join(", ") || "none"}`);
    }
  }
  const values: Record<string, string> = {};
  for (const arg of prompt.arguments) {
    const value = given[arg.name];
    if (value !== undefined && typeof value !== "string") throw invalidParams(`argument "${arg.name}" of ${prompt.name} must be a string`);
    if (value === undefined || value.trim() === "") {
      if (arg.required) throw invalidParams(`prompt ${prompt.name} needs argument "${arg.name}": ${arg.description}`);
      continue;
    }
    if (value.length > MAX_ARGUMENT_LENGTH) {
      throw invalidParams(`argument "${arg.name}" of ${prompt.name} must be at most ${MAX_ARGUMENT_LENGTH} characters`);
    }
    values[arg.name] = value.trim();
  }
  return values;
}

interface FileRef {
  fileId: string;
  path: string;
  uri: string;
}

/**
 * A file named by its fileId or its exact project path, in the session's
 * project: -32602 when there is none, since the prompt would send the model
 * after a document it cannot read.
 */
async function resolveFile(ctx: McpContext, prompt: PromptDefinition, value: string): Promise<FileRef> {
  const projectId = await sessionProject(ctx);
  const ref = (f: { fileId: string; path: string }): FileRef => ({
    fileId: f.fileId,
    path: f.path,
    uri: `pks://projects/${encodeURIComponent(projectId)}/files/${encodeURIComponent(f.fileId)}`,
  });
  try {
    if (/^fil_[0-9A-Za-z]+$/.test(value)) {
      return ref((await runEndpoint(ctx, "files.get", projectId, { params: { fileId: value } })) as FileRef);
    }
    const path = value.replace(/^\.\//, "");
    const page = await runPage<{ fileId: string; path: string }>(ctx, "files.list", projectId, { query: { path, limit: "200" } });
    const file = page.rows.find((f) => f.path === path);
    if (file) return ref(file);
  } catch (err) {
    const e = fromAppError(err);
    if (e.code !== -32002) throw e;
  }
  throw invalidParams(`prompt ${prompt.name}: no file "${value}" in this project; give a project path (as resources/list names it) or a fileId`);
}

/** The prompt's messages: its body with each `{{argument}}` filled in, and a link to each file an argument resolved to. */
export async function getPrompt(ctx: McpContext, params: RawParams): Promise<GetPromptResult> {
  const name = params.name;
  if (typeof name !== "string" || name === "") throw invalidParams(`prompts/get needs params.name, the prompt to get (one of: ${names()})`);
  const prompt = findPrompt(name);
  if (!prompt) throw invalidParams(`unknown prompt "${name}"; prompts: ${names()}`);
  const values = checkArguments(prompt, params.arguments);
  const fill: Record<string, string> = { ...values };
  const links: PromptMessage["content"][] = [];
  for (const arg of prompt.arguments) {
    if (arg.resolve !== "file" || values[arg.name] === undefined) continue;
    const file = await resolveFile(ctx, prompt, values[arg.name]!);
    Object.assign(fill, { [`${arg.name}.fileId`]: file.fileId, [`${arg.name}.path`]: file.path, [`${arg.name}.uri`]: file.uri });
    links.push({ type: "resource_link", uri: file.uri, name: file.path });
  }
  const text = prompt.body.replace(/\{\{([\w.]+)\}\}/g, (whole, key: string) => fill[key] ?? "");
  const messages: PromptMessage[] = [{ role: "user", content: { type: "text", text } }, ...links.map((content) => ({ role: "user" as const, content }))];
  return { description: prompt.description, messages };
}

/**
 * Prompts: Markdown files with front matter in `prompts/` (read through
 * `readPromptFile`), each a user message that tells the model which tools
 * to call and what to answer. `prompts/get` checks the arguments first:
 * a missing required one, an unknown one or a value that is not a string is
 * -32602 with one sentence.
 */
export const promptsFeature: McpFeature = {
  capabilities: { prompts: { listChanged: false } },
  register(server, ctx) {
    handleRequest(server, "prompts/list", async () => ({ prompts: promptDefinitions().map(toPrompt) }));
    handleRequest(server, "prompts/get", (params) => getPrompt(ctx, params));
  },
};
