/**
 * Code names in prose: spans marked as code (backticks, `<code>`), and words whose
 * spelling only code uses (`parseConfig`, `dh_testroot`, `app.request()`,
 * `@scope/package`, `--option`, `fakeroot(1)`). Code symbols come out as
 * kind `symbol`, to be resolved later against the project's symbols by name.
 */
import type { EntityMention } from "./entity-mention.js";
import { isCamelCase, isFileOrHost, isPascalCase, isSnakeCase, isUrl } from "./name-shape.js";
import { isKnownWord } from "./word-tags.js";
import { CODE_GLOBALS, CODE_SUFFIXES, STOPWORDS } from "./word-lists.js";
import { lookupTable } from "../lookup.js";

const IDENTIFIER = "[A-Za-z_$][A-Za-z0-9_$]*";
const CHAIN = new RegExp(`^${IDENTIFIER}(?:(?:\\.|#|::)${IDENTIFIER})*$`);
const SCOPED_PACKAGE = /^@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*$/;
/** `@hono/node-server/conninfo`: a module inside a scoped package. */
const SCOPED_MODULE = /^@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*(?:\/[\w.-]+)+$/;
const LONG_OPTION = /^--[a-z][a-z0-9]*(?:-[a-z0-9]+)+$|^--[a-z]{3,}$/;
const MAN_PAGE = /^([a-z][\w.+-]*)\(\d[a-z]*\)$/;
/** `dpkg/target-subcommand`, `debhelper/upstream-make-install`: keyword paths of specifications. */
const KEYWORD_PATH = /^[a-z][\w.+-]*(?:\/[a-z<][\w.<>+-]*)+$/;

function symbol(name: string): EntityMention {
  return { name, kind: "symbol", source: "code" };
}

/** Drops a call's argument list: `app.request()` → `app.request`, `foo(bar)` → `foo`. */
function withoutCall(text: string): string {
  return text.replace(/\(.*\)$/s, "");
}

/** A dotted chain rooted in a language global names its last part only. */
function chainMention(chain: string): EntityMention | undefined {
  const parts = chain.split(/\.|#|::/);
  const root = parts[0]?.toLowerCase() ?? "";
  if (CODE_GLOBALS.has(root)) {
    const last = parts.at(-1) ?? "";
    return isSnakeCase(last) || isCamelCase(last) || isPascalCase(last) ? symbol(last) : undefined;
  }
  return symbol(chain);
}

/** The mention a code span stands for, if it is a name at all. */
export function codeSpanMention(span: string): EntityMention | undefined {
  const text = span.trim().replace(/^new\s+/, "");
  if (SCOPED_PACKAGE.test(text)) return { name: text, kind: "product", source: "code" };
  if (SCOPED_MODULE.test(text)) return symbol(text);
  if (LONG_OPTION.test(text)) return { name: text, kind: "concept", source: "code" };
  const bare = withoutCall(text);
  // A constant or a protocol word in capitals (`GET`, `MAX`) is a value, not something to look up.
  if (/^[A-Z][A-Z0-9]*$/.test(bare)) return undefined;
  if (bare.length < 2 || STOPWORDS.has(bare.toLowerCase()) || /^(?:true|false|null|undefined|nil|none)$/i.test(bare)) return undefined;
  if (isUrl(bare) || isFileOrHost(bare)) return undefined;
  // A lone everyday word in code marks (`make`, `yes`) is a command or a value more often than a symbol.
  if (/^[a-z]+$/.test(bare) && isKnownWord(bare)) return undefined;
  if (CHAIN.test(bare)) return chainMention(bare);
  if (KEYWORD_PATH.test(bare) && !bare.includes("//")) return symbol(bare);
  return undefined;
}

/** Whether a PascalCase word reads as a type or class name (`RegExpRouter`) rather than a brand (`GitHub`). */
export function isCodeTypeName(word: string): boolean {
  const humps = word.match(/[A-Z][a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [];
  const last = humps.at(-1)?.toLowerCase() ?? "";
  return humps.length >= 2 && CODE_SUFFIXES.has(last);
}

function dottedMention(core: string): EntityMention | undefined {
  const bare = withoutCall(core);
  if (!CHAIN.test(bare) || !/[.#]|::/.test(bare) || isFileOrHost(bare)) return undefined;
  const parts = bare.split(/\.|#|::/);
  const called = bare !== core;
  const codeLike = parts.some((p) => isCamelCase(p) || isSnakeCase(p) || isPascalCase(p)) || /^[A-Z]/.test(bare);
  if (!called && !codeLike) return undefined;
  // "E.g", "U.S": abbreviations, not member access.
  if (parts.some((p) => p.length === 0) || parts.every((p) => p.length === 1)) return undefined;
  return chainMention(bare);
}

/**
 * The code-shaped name a single prose word stands for, if any. `core` is
 * the word without surrounding punctuation.
 */
export function codeWordMention(core: string): EntityMention | undefined {
  if (isUrl(core)) return undefined;
  if (SCOPED_PACKAGE.test(core)) return { name: core, kind: "product", source: "code" };
  if (SCOPED_MODULE.test(core)) return symbol(core);
  const option = /(?:^|\/)(--[a-z][a-z0-9-]*)$/.exec(core)?.[1];
  if (option !== undefined && LONG_OPTION.test(option)) return { name: option, kind: "concept", source: "code" };
  const manPage = MAN_PAGE.exec(core)?.[1];
  if (manPage !== undefined) return { name: manPage, kind: "product", source: "code" };
  if (isSnakeCase(core) || isCamelCase(withoutCall(core))) return symbol(withoutCall(core));
  if (/^[A-Z]/.test(core) && isPascalCase(withoutCall(core)) && (isCodeTypeName(withoutCall(core)) || core.endsWith(")"))) {
    return symbol(withoutCall(core));
  }
  const dotted = dottedMention(core);
  if (dotted !== undefined) return dotted;
  if (KEYWORD_PATH.test(core) && /[-_]|\/.*\//.test(core.slice(core.indexOf("/"))) && !isFileOrHost(core)) {
    return { name: core, kind: "concept", source: "code" };
  }
  return undefined;
}

const HTML_ESCAPES = lookupTable<string>({ "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'" });

/** The contents of every code span in a span's raw text: Markdown backticks and HTML `<code>` elements. */
export function codeSpans(text: string): string[] {
  const ticked = [...text.matchAll(/(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/g)].map((m) => m[2] ?? "");
  const tagged = [...text.matchAll(/<code\b[^>]*>([^<]{1,200})<\/code>/gi)].map((m) => (m[1] ?? "").replace(/&(?:lt|gt|amp|quot|#39);/g, (e) => HTML_ESCAPES[e] ?? e));
  return [...ticked, ...tagged].filter((s) => s.trim().length > 0);
}
