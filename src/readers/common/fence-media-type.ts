import { lookupTable } from "../../lookup.js";

/**
 * Media type of a fenced code block, from the language named after its
 * opening fence.
 */

const BY_LANGUAGE = lookupTable<string>({
  ts: "text/x-typescript",
  typescript: "text/x-typescript",
  tsx: "text/x-typescript",
  js: "text/javascript",
  javascript: "text/javascript",
  jsx: "text/javascript",
  mjs: "text/javascript",
  json: "application/json",
  jsonc: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  sh: "text/x-shellscript",
  bash: "text/x-shellscript",
  shell: "text/x-shellscript",
  zsh: "text/x-shellscript",
  console: "text/x-shellscript",
  py: "text/x-python",
  python: "text/x-python",
  rs: "text/x-rust",
  rust: "text/x-rust",
  go: "text/x-go",
  java: "text/x-java",
  c: "text/x-c",
  h: "text/x-c",
  cpp: "text/x-c++",
  "c++": "text/x-c++",
  cs: "text/x-csharp",
  csharp: "text/x-csharp",
  rb: "text/x-ruby",
  ruby: "text/x-ruby",
  php: "text/x-php",
  sql: "application/sql",
  html: "text/html",
  css: "text/css",
  xml: "application/xml",
  md: "text/markdown",
  markdown: "text/markdown",
  diff: "text/x-diff",
  patch: "text/x-diff",
  text: "text/plain",
  txt: "text/plain",
  plaintext: "text/plain",
});

/**
 * `text/plain` without a language; a known language's media type; otherwise
 * `text/x-<language>` when the name is a plain token, else `text/plain`.
 */
export function fenceMediaType(lang: string | null | undefined): string {
  const name = (lang ?? "").trim().toLowerCase();
  if (name.length === 0) return "text/plain";
  const known = BY_LANGUAGE[name];
  if (known !== undefined) return known;
  return /^[a-z0-9][a-z0-9+.-]{0,31}$/.test(name) ? `text/x-${name}` : "text/plain";
}
