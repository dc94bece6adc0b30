/**
 * Identifier occurrences of one file: every declaration's name (kind
 * `declaration`) and every other occurrence that could name a symbol (kind
 * `usage`), minus ignored nodes and plain identifiers that are only
 * parameters or locals.
 */
import type { Node } from "web-tree-sitter";
import type { CodeReference } from "./code-facts.js";
import type { LocatedDeclaration } from "./declarations.js";
import { withoutLocals } from "./local-names.js";
import type { CaptureSets } from "./query-captures.js";

/** Most references kept for one file; the rest are dropped and reported. */
export const MAX_REFERENCES_PER_FILE = 50_000;

/** References in document order, and whether the cap cut some. */
export interface ReferenceList {
  references: CodeReference[];
  capped: boolean;
}

function usageOf(node: Node): CodeReference {
  return {
    name: node.text,
    kind: "usage",
    line: node.startPosition.row + 1,
    column: node.startPosition.column,
    endLine: node.endPosition.row + 1,
  };
}

function declarationReference(located: LocatedDeclaration): CodeReference {
  const { name } = located;
  return { name: name.symbol, kind: "declaration", line: name.line, column: name.column, endLine: name.line };
}

function byStart(a: Node, b: Node): number {
  return a.startIndex - b.startIndex;
}

/** Drops nodes inside any ignored node; both lists are walked once in document order. */
function outsideIgnored(nodes: Node[], ignored: Node[]): Node[] {
  const sorted = [...nodes].sort(byStart);
  if (ignored.length === 0) return sorted;
  const ranges = [...ignored].sort(byStart);
  let next = 0;
  let coveredUntil = -1;
  return sorted.filter((node) => {
    for (let range = ranges[next]; range && range.startIndex <= node.startIndex; range = ranges[++next]) {
      coveredUntil = Math.max(coveredUntil, range.endIndex);
    }
    return node.startIndex >= coveredUntil;
  });
}

/** Usage nodes keyed by start, dropping ignored nodes, declaration names and locals. */
function usageNodes(sets: CaptureSets, declaredAt: Set<number>): Map<number, Node> {
  const notDeclared = (node: Node): boolean => !declaredAt.has(node.startIndex);
  const candidates = outsideIgnored(sets.references.filter(notDeclared), sets.ignored);
  const plain = withoutLocals(candidates, sets.localScopes, sets.localDefinitions);
  const usages = new Map<number, Node>();
  for (const node of plain) usages.set(node.startIndex, node);
  for (const node of outsideIgnored(sets.memberReferences.filter(notDeclared), sets.ignored)) {
    usages.set(node.startIndex, node);
  }
  return usages;
}

/** Builds the reference list of a file. */
export function buildReferences(sets: CaptureSets, declarations: LocatedDeclaration[]): ReferenceList {
  const declaredAt = new Set<number>();
  const entries: { start: number; reference: CodeReference }[] = [];
  for (const located of declarations) {
    if (declaredAt.has(located.name.startIndex)) continue;
    declaredAt.add(located.name.startIndex);
    entries.push({ start: located.name.startIndex, reference: declarationReference(located) });
  }
  for (const [start, node] of usageNodes(sets, declaredAt)) entries.push({ start, reference: usageOf(node) });
  entries.sort((a, b) => a.start - b.start);
  const capped = entries.length > MAX_REFERENCES_PER_FILE;
  return {
    references: entries.slice(0, MAX_REFERENCES_PER_FILE).map((entry) => entry.reference),
    capped,
  };
}
