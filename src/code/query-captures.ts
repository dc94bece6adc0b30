/**
 * Runs a language's extraction query once over a tree and sorts the captures
 * into the roles the extractor understands. The capture names are the whole
 * contract between the `.scm` files and the code:
 *
 * - `@definition.<kind>` (whole declaration) with `@name`, optionally
 *   `@receiver` (explicit container, e.g. a Go method's receiver type)
 * - `@scope` with `@scope.name`: a container that is not a declaration
 *   (a Rust `impl` block; named by the last segment of its type)
 * - `@scope.tail` with `@scope.name`: a statement that opens a container
 *   for the rest of its parent (`namespace App\Blog;` in PHP, C# file-scoped
 *   namespaces; named by every segment)
 * - `@reference` (may be a local) and `@reference.member` (never a local)
 * - `@ignore`: a node whose identifiers are not symbols (`<div>`, a package clause)
 * - `@local.scope` and `@local.definition`: function scopes and the
 *   parameters and locals declared in them
 * - `@import` (statement) with `@import.source`, `@import.path`,
 *   `@import.name`, `@import.alias`, `@import.namespace`, `@import.default`
 *
 * Captures whose name starts with `_` only serve predicates.
 */
import type { Node, Query } from "web-tree-sitter";
import { DECLARATION_KINDS, type DeclarationKind } from "./code-facts.js";

/** One matched declaration. */
export interface DefinitionCapture {
  kind: DeclarationKind;
  node: Node;
  name: Node;
  receiver?: Node;
  /** Earlier patterns win when two claim the same name. */
  pattern: number;
}

/** A container that is not itself a declaration. */
export interface ScopeCapture {
  node: Node;
  name: Node;
  /** Open until the parent ends (or the next tail scope starts) rather than until the node ends. */
  tail: boolean;
}

/** A part of an import statement. */
export interface ImportPart {
  role: "source" | "path" | "name" | "alias" | "namespace" | "default";
  node: Node;
}

/** Captures sorted by role. */
export interface CaptureSets {
  definitions: DefinitionCapture[];
  scopes: ScopeCapture[];
  references: Node[];
  memberReferences: Node[];
  ignored: Node[];
  localScopes: Node[];
  localDefinitions: Node[];
  imports: Node[];
  importParts: ImportPart[];
}

const KINDS = new Set<string>(DECLARATION_KINDS);
const IMPORT_ROLES = new Set<string>(["source", "path", "name", "alias", "namespace", "default"]);

function emptySets(): CaptureSets {
  return {
    definitions: [],
    scopes: [],
    references: [],
    memberReferences: [],
    ignored: [],
    localScopes: [],
    localDefinitions: [],
    imports: [],
    importParts: [],
  };
}

function addDefinition(sets: CaptureSets, kind: string, node: Node, named: Map<string, Node>, pattern: number): void {
  const name = named.get("name");
  if (!name || !KINDS.has(kind)) return;
  const receiver = named.get("receiver");
  const definition: DefinitionCapture = { kind: kind as DeclarationKind, node, name, pattern };
  if (receiver) definition.receiver = receiver;
  sets.definitions.push(definition);
}

function addSingle(sets: CaptureSets, captureName: string, node: Node): void {
  switch (captureName) {
    case "reference":
      sets.references.push(node);
      return;
    case "reference.member":
      sets.memberReferences.push(node);
      return;
    case "ignore":
      sets.ignored.push(node);
      return;
    case "local.scope":
      sets.localScopes.push(node);
      return;
    case "local.definition":
      sets.localDefinitions.push(node);
      return;
    case "import":
      sets.imports.push(node);
      return;
  }
  if (captureName.startsWith("import.")) {
    const role = captureName.slice("import.".length);
    if (IMPORT_ROLES.has(role)) sets.importParts.push({ role: role as ImportPart["role"], node });
  }
}

/** Runs the query over the whole tree and groups its captures by role. */
export function collectCaptures(query: Query, root: Node): CaptureSets {
  const sets = emptySets();
  for (const match of query.matches(root)) {
    const only = match.captures.length === 1 ? match.captures[0] : undefined;
    // Most matches are one identifier: skip the grouping they do not need.
    if (only && !only.name.startsWith("definition.") && !only.name.startsWith("scope")) {
      addSingle(sets, only.name, only.node);
      continue;
    }
    const named = new Map<string, Node>();
    let definition: { kind: string; node: Node } | undefined;
    let scope: { node: Node; tail: boolean } | undefined;
    for (const capture of match.captures) {
      if (capture.name.startsWith("definition.")) {
        definition = { kind: capture.name.slice("definition.".length), node: capture.node };
      } else if (capture.name === "scope" || capture.name === "scope.tail") {
        scope = { node: capture.node, tail: capture.name === "scope.tail" };
      } else {
        named.set(capture.name, capture.node);
        addSingle(sets, capture.name, capture.node);
      }
    }
    if (definition) addDefinition(sets, definition.kind, definition.node, named, match.patternIndex);
    const scopeName = named.get("scope.name");
    if (scope && scopeName) sets.scopes.push({ node: scope.node, name: scopeName, tail: scope.tail });
  }
  return sets;
}
