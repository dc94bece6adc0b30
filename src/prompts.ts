import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { packageRoot } from "./package-root.js";

export interface PromptFile {
  /** Front matter fields. */
  meta: Record<string, unknown>;
  body: string;
}

/** Reads a markdown file with optional YAML front matter from `prompts/`. */
export function readPromptFile(name: string, dir = join(packageRoot(), "prompts")): PromptFile {
  const text = readFileSync(join(dir, name), "utf8");
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!m) return { meta: {}, body: text.trim() };
  return { meta: (parseYaml(m[1]!) as Record<string, unknown>) ?? {}, body: m[2]!.trim() };
}

/** The MCP server instructions. */
export function serverInstructions(): string {
  return readPromptFile("instructions.md").body;
}
