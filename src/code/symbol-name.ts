/**
 * Splits the text of a declaration's name node into the bare symbol and any
 * qualifier written in front of it (`Circle::area`, `A.B.C`, `Foo::Bar`),
 * and locates the bare symbol in the source.
 */
import type { Node } from "web-tree-sitter";

/** A name node reduced to its last segment. */
export interface SymbolName {
  symbol: string;
  /** Qualifier segments before the symbol, outermost first. */
  qualifier: string[];
  /** Source index, line (1-based) and column (0-based) of the bare symbol. */
  startIndex: number;
  line: number;
  column: number;
}

const SEPARATOR = /::|\.|\\/;

/** Removes generic argument lists: `Point<T>` → `Point`. */
export function stripGenerics(text: string): string {
  let result = text;
  let previous = "";
  while (result !== previous) {
    previous = result;
    result = result.replace(/<[^<>]*>/g, "");
  }
  return result;
}

/** The segments of a qualified name without generic arguments: `App\\Blog` → `["App", "Blog"]`. */
export function qualifiedSegments(text: string): string[] {
  return stripGenerics(text)
    .split(SEPARATOR)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** The last segment of a (possibly qualified, possibly generic) type name. */
export function lastSegment(text: string): string {
  return qualifiedSegments(text).pop() ?? text.trim();
}

/** Splits a name node into symbol and qualifier, keeping the symbol's position. */
export function symbolNameOf(name: Node): SymbolName {
  // A Ruby symbol (`attr_reader :id`) names `id`.
  const sigil = name.text.startsWith(":") ? 1 : 0;
  const text = name.text.slice(sigil);
  const parts = qualifiedSegments(text);
  const symbol = parts.pop() ?? text;
  const offset = sigil + (parts.length > 0 && !text.includes("\n") ? Math.max(0, text.lastIndexOf(symbol)) : 0);
  return {
    symbol,
    qualifier: parts,
    startIndex: name.startIndex + offset,
    line: name.startPosition.row + 1,
    column: name.startPosition.column + offset,
  };
}
