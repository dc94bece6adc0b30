/**
 * Stable symbol ids. An id hashes what names a symbol — language, file path,
 * container chain, name and the broad class of its kind — and never its
 * position, so edits elsewhere in the file leave it unchanged.
 */
import { createHash } from "node:crypto";
import type { DeclarationKind } from "./code-facts.js";

/** Broad kind classes: a `let` turning `const` keeps its id, a class turning into a function does not. */
export type KindClass = "type" | "callable" | "value" | "scope";

const KIND_CLASS: Record<DeclarationKind, KindClass> = {
  class: "type",
  interface: "type",
  type: "type",
  enum: "type",
  struct: "type",
  trait: "type",
  function: "callable",
  method: "callable",
  constructor: "callable",
  property: "value",
  variable: "value",
  constant: "value",
  field: "value",
  module: "scope",
  namespace: "scope",
};

/** The kind class a declaration kind belongs to. */
export function kindClassOf(kind: DeclarationKind): KindClass {
  return KIND_CLASS[kind];
}

/** What a symbol id is derived from. */
export interface SymbolIdParts {
  language: string;
  path: string;
  container: readonly string[];
  name: string;
  kind: DeclarationKind;
  /** 0 for the first declaration of a name in its container and kind class; 1, 2… for later ones. */
  ordinal: number;
}

/** `sym_` + 22 characters of base64url SHA-256 over the identifying parts. */
export function symbolIdFor(parts: SymbolIdParts): string {
  const fields = [parts.language, parts.path, parts.container.join("\u001f"), parts.name, kindClassOf(parts.kind)];
  if (parts.ordinal > 0) fields.push(String(parts.ordinal));
  const digest = createHash("sha256").update(fields.join("\0")).digest("base64url");
  return `sym_${digest.slice(0, 22)}`;
}

/**
 * Hands out ordinals for repeated (container, name, kind class) keys in
 * document order, so overloads and redeclarations get distinct ids while the
 * first one keeps the id it would have alone.
 */
export class OrdinalCounter {
  private readonly seen = new Map<string, number>();

  next(container: readonly string[], name: string, kind: DeclarationKind): number {
    const key = [container.join("\u001f"), name, kindClassOf(kind)].join("\0");
    const ordinal = this.seen.get(key) ?? 0;
    this.seen.set(key, ordinal + 1);
    return ordinal;
  }
}
