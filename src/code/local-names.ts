/**
 * A cheap stand-in for a resolver: which identifier occurrences are only
 * parameters or locals of an enclosing function. Each `@local.definition`
 * adds its name to the innermost `@local.scope` around it; an occurrence is
 * local when its name was added to any scope enclosing it. Blocks are not
 * scopes (a name declared in an inner block hides matching names in the
 * whole function), and a definition anywhere in a scope counts for the whole
 * scope (no "used before declared").
 */
import type { Node } from "web-tree-sitter";

interface Scope {
  start: number;
  end: number;
  names: Set<string>;
}

/** Walks sorted positions with a stack of the scopes open at each one. */
class ScopeWalker {
  private readonly stack: Scope[] = [];
  private nextScope = 0;

  constructor(private readonly scopes: Scope[]) {}

  /** Scopes enclosing `position`, innermost last; positions must not decrease. */
  at(position: number): Scope[] {
    while (this.stack.length > 0 && (this.stack.at(-1)?.end ?? 0) <= position) this.stack.pop();
    for (let scope = this.scopes[this.nextScope]; scope && scope.start <= position; scope = this.scopes[this.nextScope]) {
      this.nextScope++;
      if (scope.end <= position) continue;
      while (this.stack.length > 0 && (this.stack.at(-1)?.end ?? 0) <= scope.start) this.stack.pop();
      this.stack.push(scope);
    }
    return this.stack;
  }
}

function byStart(a: Node, b: Node): number {
  return a.startIndex - b.startIndex;
}

function scopesOf(scopeNodes: Node[]): Scope[] {
  return scopeNodes
    .map((node) => ({ start: node.startIndex, end: node.endIndex, names: new Set<string>() }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * The occurrences that are not parameters or locals, in document order.
 * @param occurrences identifier nodes that could be locals
 * @param scopeNodes function-like nodes (any order)
 * @param definitionNodes parameter and local names (any order)
 */
export function withoutLocals(occurrences: Node[], scopeNodes: Node[], definitionNodes: Node[]): Node[] {
  const sorted = [...occurrences].sort(byStart);
  if (scopeNodes.length === 0 && definitionNodes.length === 0) return sorted;
  const scopes = scopesOf(scopeNodes);
  const definedAt = new Set<number>();
  const definitions = new ScopeWalker(scopes);
  for (const definition of [...definitionNodes].sort(byStart)) {
    definitions.at(definition.startIndex).at(-1)?.names.add(definition.text);
    definedAt.add(definition.startIndex);
  }
  const uses = new ScopeWalker(scopes);
  return sorted.filter((node) => {
    if (definedAt.has(node.startIndex)) return false;
    const name = node.text;
    return !uses.at(node.startIndex).some((scope) => scope.names.has(name));
  });
}
