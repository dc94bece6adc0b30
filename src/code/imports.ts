/**
 * Import statements from their captured parts. Each part belongs to the
 * last `@import` statement that starts before it and still encloses it; a second `@import.source` or
 * `@import.path` inside one statement (`import os, sys`) starts another
 * import on the same line.
 */
import type { Node } from "web-tree-sitter";
import type { CodeImport } from "./code-facts.js";
import type { ImportPart } from "./query-captures.js";

interface Draft {
  source?: string;
  names: string[];
  aliases: Record<string, string>;
  line: number;
}

/** Removes quotes and angle brackets around a module specifier. */
export function unquote(text: string): string {
  return text.trim().replace(/^(["'`<])([\s\S]*)(["'`>])$/, "$2");
}

/** Splits `a::b::{C, D as E}` (or `a.b.C`, `a\b\C`) into source, names and aliases. */
export function splitImportPath(text: string): { source: string; names: string[]; aliases: Record<string, string> } {
  // A statement captured whole (Scala's `import a.b.{C, D => E}`) starts with its keyword.
  const compact = text.replace(/\s+/g, " ").trim().replace(/^import /, "");
  const separator = compact.includes("::") ? "::" : compact.includes("\\") ? "\\" : ".";
  const brace = compact.indexOf("{");
  const head = brace >= 0 ? compact.slice(0, brace) : compact;
  const items = brace >= 0 ? compact.slice(brace + 1, compact.lastIndexOf("}")).split(",") : [""];
  const names: string[] = [];
  const aliases: Record<string, string> = {};
  let source = head.endsWith(separator) ? head.slice(0, -separator.length) : head;
  for (const item of items) {
    const full = brace >= 0 ? item.trim() : head;
    if (!full) continue;
    const [path = "", alias] = full.split(/\s+as\s+|\s*=>\s*/);
    const segments = path.split(separator).filter((segment) => segment.length > 0);
    const name = segments.pop() ?? path;
    if (brace < 0) {
      // A one-segment path (`use serde;`) imports the module itself.
      source = segments.length > 0 ? segments.join(separator) : name;
      if (segments.length === 0) continue;
    }
    names.push(name);
    if (alias && alias !== name) aliases[alias.trim()] = name;
  }
  return { source: source.replace(/^\\/, ""), names, aliases };
}

function finish(draft: Draft | undefined, into: CodeImport[]): void {
  if (!draft || draft.source === undefined) return;
  const entry: CodeImport = { source: draft.source, names: [...new Set(draft.names)], line: draft.line };
  if (Object.keys(draft.aliases).length > 0) entry.aliases = draft.aliases;
  into.push(entry);
}

function applyPart(draft: Draft, part: ImportPart): void {
  const text = part.node.text.trim();
  switch (part.role) {
    case "source":
      draft.source = unquote(text);
      return;
    case "path": {
      const split = splitImportPath(text);
      draft.source = split.source;
      draft.names.push(...split.names);
      Object.assign(draft.aliases, split.aliases);
      return;
    }
    case "name":
      draft.names.push(text);
      return;
    case "alias": {
      const imported = draft.names.at(-1);
      if (imported !== undefined && imported !== text) draft.aliases[text] = imported;
      return;
    }
    case "namespace":
    case "default": {
      const imported = part.role === "namespace" ? "*" : "default";
      draft.names.push(imported);
      draft.aliases[text] = imported;
    }
  }
}

/** Groups import parts by statement, in document order. */
export function buildImports(statements: Node[], parts: ImportPart[]): CodeImport[] {
  const sortedStatements = [...statements].sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const sortedParts = [...parts].sort((a, b) => a.node.startIndex - b.node.startIndex);
  const imports: CodeImport[] = [];
  let statementIndex = -1;
  let draft: Draft | undefined;
  for (const part of sortedParts) {
    const position = part.node.startIndex;
    let next = sortedStatements[statementIndex + 1];
    while (next && next.startIndex <= position) {
      finish(draft, imports);
      statementIndex++;
      draft = { names: [], aliases: {}, line: next.startPosition.row + 1 };
      next = sortedStatements[statementIndex + 1];
    }
    const statement = sortedStatements[statementIndex];
    if (!draft || !statement || position >= statement.endIndex) continue;
    if ((part.role === "source" || part.role === "path") && draft.source !== undefined) {
      finish(draft, imports);
      draft = { names: [], aliases: {}, line: draft.line };
    }
    applyPart(draft, part);
  }
  finish(draft, imports);
  return imports;
}
