/**
 * Turns definition captures into declarations: picks one definition per
 * name, nests them into container chains, and derives signature, doc and a
 * stable symbol id for each.
 */
import type { Node } from "web-tree-sitter";
import type { CodeDeclaration, DeclarationKind } from "./code-facts.js";
import { docCommentOf } from "./doc-comment.js";
import type { CodeLanguage } from "./languages.js";
import type { CaptureSets, DefinitionCapture, ScopeCapture } from "./query-captures.js";
import { signatureOf } from "./signature.js";
import { OrdinalCounter, symbolIdFor } from "./symbol-id.js";
import { lastSegment, qualifiedSegments, symbolNameOf, type SymbolName } from "./symbol-name.js";

/** Kinds whose declarations enclose others (a field never contains a declaration). */
const CONTAINER_KINDS = new Set<DeclarationKind>([
  "class",
  "interface",
  "enum",
  "struct",
  "trait",
  "module",
  "namespace",
  "function",
  "method",
  "constructor",
]);
const VALUE_KINDS = new Set<DeclarationKind>(["property", "field"]);
const UPPER_SNAKE = /^[A-Z][A-Z0-9_]*$/;

/** A declaration together with where its name sits in the source. */
export interface LocatedDeclaration {
  declaration: CodeDeclaration;
  name: SymbolName;
}

interface OpenContainer {
  end: number;
  names: string[];
  /** Members declared by a constructor (parameter properties) belong to its class. */
  constructorOf?: string[];
}

interface Candidate {
  start: number;
  end: number;
  definition?: DefinitionCapture;
  scopeNames?: string[];
}

/** Block scopes end with their node; a tail scope runs to its parent's end or the next tail scope. */
function scopeCandidates(scopes: ScopeCapture[]): Candidate[] {
  const tails = scopes.filter((scope) => scope.tail).sort((a, b) => a.node.startIndex - b.node.startIndex);
  const candidates = tails.map((scope, index): Candidate => {
    const parentEnd = scope.node.parent?.endIndex ?? scope.node.endIndex;
    const nextStart = tails[index + 1]?.node.startIndex ?? parentEnd;
    const names = qualifiedSegments(scope.name.text);
    return { start: scope.node.endIndex, end: Math.min(parentEnd, nextStart), scopeNames: names };
  });
  for (const scope of scopes) {
    if (scope.tail) continue;
    candidates.push({ start: scope.node.startIndex, end: scope.node.endIndex, scopeNames: [lastSegment(scope.name.text)] });
  }
  return candidates;
}

/** One definition per name node: the earliest pattern in the query wins. */
function pickDefinitions(definitions: DefinitionCapture[]): DefinitionCapture[] {
  const byName = new Map<number, DefinitionCapture>();
  for (const definition of definitions) {
    const seen = byName.get(definition.name.startIndex);
    if (!seen || definition.pattern < seen.pattern) byName.set(definition.name.startIndex, definition);
  }
  return [...byName.values()];
}

function candidatesOf(sets: CaptureSets): Candidate[] {
  const candidates: Candidate[] = pickDefinitions(sets.definitions).map((definition) => ({
    start: definition.node.startIndex,
    end: definition.node.endIndex,
    definition,
  }));
  candidates.push(...scopeCandidates(sets.scopes));
  // Outer before inner: by start, then the longer one first; scopes before the declarations they hold.
  const rank = (candidate: Candidate): number => (candidate.scopeNames === undefined ? 1 : 0);
  return candidates.sort((a, b) => a.start - b.start || b.end - a.end || rank(a) - rank(b));
}

/** Climbs through wrappers (export, decorators, a one-spec Go `type`), never into a group of peers. */
function outerNodeOf(node: Node, language: CodeLanguage): Node {
  let outer = node;
  for (let parent = outer.parent; parent && language.wrapperTypes.includes(parent.type); parent = outer.parent) {
    const type = outer.type;
    if (parent.namedChildren.filter((child) => child?.type === type).length > 1) break;
    outer = parent;
  }
  return outer;
}

/** 1-based last line; a node ending with its newline (`#define`) ends on the line before. */
function lastLineOf(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}

function kindOf(definition: DefinitionCapture, name: SymbolName, container: string[], language: CodeLanguage): DeclarationKind {
  const { kind } = definition;
  if (kind === "variable" && language.upperCaseConstants && UPPER_SNAKE.test(name.symbol)) return "constant";
  // A method named after its class (C++, C#, old PHP), or `Circle::Circle` defined out of line.
  const qualified = kind === "function" && name.qualifier.length > 0;
  if ((kind === "method" || qualified) && container.at(-1) === name.symbol) return "constructor";
  return kind;
}

interface BuildContext {
  language: CodeLanguage;
  path: string;
  source: string;
  ordinals: OrdinalCounter;
}

function declare(definition: DefinitionCapture, enclosing: string[], context: BuildContext): LocatedDeclaration | undefined {
  // Error recovery can hand back an empty (missing) name node.
  if (definition.name.isMissing) return undefined;
  const name = symbolNameOf(definition.name);
  if (name.symbol.length === 0) return undefined;
  const receiver = definition.receiver ? [lastSegment(definition.receiver.text)] : [];
  const container = [...enclosing, ...receiver, ...name.qualifier];
  const kind = kindOf(definition, name, container, context.language);
  const outer = outerNodeOf(definition.node, context.language);
  const declaration: CodeDeclaration = {
    symbol: name.symbol,
    kind,
    container,
    qualifiedName: [...container, name.symbol].join("."),
    lines: [outer.startPosition.row + 1, lastLineOf(definition.node)],
    signature: signatureOf(definition.node, outer, kind, definition.name, context.source),
    symbolId: symbolIdFor({
      language: context.language.id,
      path: context.path,
      container,
      name: name.symbol,
      kind,
      ordinal: context.ordinals.next(container, name.symbol, kind),
    }),
  };
  const doc = docCommentOf(definition.node, outer, context.language);
  if (doc) declaration.doc = doc;
  return { declaration, name };
}

/**
 * Where a language writes one function as consecutive clauses (a Haskell
 * signature and its equations, Elixir's `def` clauses), a clause that
 * repeats the previous declaration's name, kind and container extends it
 * instead of declaring the name again. Answers whether it merged.
 */
function mergeClause(
  previous: LocatedDeclaration | undefined,
  previousParent: number | undefined,
  candidate: Candidate,
  enclosing: string[],
  language: CodeLanguage,
): boolean {
  const definition = candidate.definition;
  if (!language.mergesClauses || !previous || !definition || definition.name.isMissing) return false;
  // Clauses are siblings: a class's signature and an instance's equation of one name are not one function.
  if (definition.node.parent?.id !== previousParent) return false;
  const declaration = previous.declaration;
  const name = symbolNameOf(definition.name);
  const container = [...enclosing, ...name.qualifier];
  if (name.symbol !== declaration.symbol || definition.kind !== declaration.kind) return false;
  if (container.join(".") !== declaration.container.join(".")) return false;
  declaration.lines = [declaration.lines[0], Math.max(declaration.lines[1], lastLineOf(definition.node))];
  return true;
}

/** Builds the declarations of one file in document order. */
export function buildDeclarations(
  sets: CaptureSets,
  language: CodeLanguage,
  path: string,
  source: string,
): LocatedDeclaration[] {
  const context: BuildContext = { language, path, source, ordinals: new OrdinalCounter() };
  const result: LocatedDeclaration[] = [];
  const open: OpenContainer[] = [];
  let lastParent: number | undefined;
  for (const candidate of candidatesOf(sets)) {
    while (open.length > 0 && (open[open.length - 1]?.end ?? 0) <= candidate.start) open.pop();
    const top = open.at(-1);
    const enclosing = top?.names ?? [];
    if (candidate.scopeNames !== undefined) {
      open.push({ end: candidate.end, names: [...enclosing, ...candidate.scopeNames] });
      continue;
    }
    if (!candidate.definition) continue;
    if (mergeClause(result.at(-1), lastParent, candidate, enclosing, context.language)) {
      const merged = result.at(-1)!.declaration;
      if (CONTAINER_KINDS.has(merged.kind)) open.push({ end: candidate.end, names: [...merged.container, merged.symbol] });
      continue;
    }
    const member = VALUE_KINDS.has(candidate.definition.kind) && top?.constructorOf;
    const located = declare(candidate.definition, member || enclosing, context);
    if (!located) continue;
    result.push(located);
    lastParent = candidate.definition.node.parent?.id;
    const { kind, container, symbol } = located.declaration;
    if (CONTAINER_KINDS.has(kind)) {
      const opened: OpenContainer = { end: candidate.end, names: [...container, symbol] };
      if (kind === "constructor") opened.constructorOf = container;
      open.push(opened);
    }
  }
  return result;
}
