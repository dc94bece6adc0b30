/**
 * Renders extracted code facts as the source annotated, one comment line per
 * fact under the line it belongs to (scip-style goldens): carets under each
 * reference, the declaration's kind, display path, lines, signature and
 * doc, and each import.
 */
import type { CodeDeclaration, CodeFacts, CodeImport, CodeReference } from "../../src/code/code-facts.js";

const HASH_COMMENT = new Set(["py", "rb", "sh"]);

function commentPrefix(path: string): string {
  return HASH_COMMENT.has(path.slice(path.lastIndexOf(".") + 1)) ? "#" : "//";
}

function displayName(path: string, declaration: CodeDeclaration): string {
  return `${path}/${[...declaration.container, declaration.symbol].join("#")}`;
}

function declarationFor(facts: CodeFacts, reference: CodeReference): CodeDeclaration | undefined {
  const candidates = facts.declarations.filter(
    (declaration) =>
      declaration.symbol === reference.name &&
      declaration.lines[0] <= reference.line &&
      reference.line <= declaration.lines[1],
  );
  return candidates.sort((a, b) => b.lines[0] - a.lines[0])[0];
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ¶ ");
}

/** Comment prefix plus whitespace reaching the column; tabs are kept so carets line up under tabbed code. */
function indentTo(prefix: string, sourceLine: string, column: number): string | undefined {
  const lead = sourceLine.slice(0, column).replace(/[^\t]/g, " ");
  if (lead.startsWith(" ".repeat(prefix.length))) return prefix + lead.slice(prefix.length);
  if (lead.startsWith("\t")) return prefix + lead;
  return undefined;
}

function referenceLines(prefix: string, sourceLine: string, facts: CodeFacts, reference: CodeReference, path: string): string[] {
  const aligned = indentTo(prefix, sourceLine, reference.column);
  const shifted = aligned === undefined;
  const indent = aligned ?? prefix + " ";
  const carets = "^".repeat(Math.max(1, reference.name.length));
  const where = shifted ? ` (column ${reference.column})` : "";
  if (reference.kind === "usage") return [`${indent}${carets} usage ${reference.name}${where}`];
  const declaration = declarationFor(facts, reference);
  if (!declaration) return [`${indent}${carets} declaration ${reference.name} (no declaration found)${where}`];
  const pad = indent.length > prefix.length ? indent : prefix + " ";
  const lines = [
    `${indent}${carets} declaration ${declaration.kind} ${displayName(path, declaration)} ` +
      `lines ${declaration.lines[0]}-${declaration.lines[1]}${where}`,
    `${pad}signature: ${declaration.signature}`,
  ];
  if (declaration.doc) lines.push(`${pad}doc: ${oneLine(declaration.doc)}`);
  return lines;
}

function importLine(prefix: string, entry: CodeImport): string {
  const aliases = Object.entries(entry.aliases ?? {}).map(([local, imported]) => `${local}=${imported}`);
  const tail = aliases.length > 0 ? ` aliases [${aliases.join(", ")}]` : "";
  return `${prefix} import "${entry.source}" names [${entry.names.join(", ")}]${tail}`;
}

/** The source with every fact written under its line. */
export function annotateSource(path: string, source: string, facts: CodeFacts): string {
  const prefix = commentPrefix(path);
  const output: string[] = [];
  source.split("\n").forEach((text, index) => {
    const line = index + 1;
    output.push(text);
    for (const entry of facts.imports.filter((item) => item.line === line)) output.push(importLine(prefix, entry));
    for (const reference of facts.references.filter((item) => item.line === line)) {
      output.push(...referenceLines(prefix, text, facts, reference, path));
    }
  });
  if (facts.problems) output.push(`${prefix} problems: ${facts.problems.join("; ")}`);
  return output.join("\n");
}
