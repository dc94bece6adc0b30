/**
 * What code extraction yields for one file: declarations, identifier
 * references and imports. Plain data, ready to persist.
 */

/** Kinds of declaration, shared by every language. */
export const DECLARATION_KINDS = [
  "class",
  "interface",
  "type",
  "enum",
  "function",
  "method",
  "constructor",
  "property",
  "variable",
  "constant",
  "module",
  "namespace",
  "struct",
  "trait",
  "field",
] as const;
export type DeclarationKind = (typeof DECLARATION_KINDS)[number];

/** One declared symbol. */
export interface CodeDeclaration {
  /** Bare name, e.g. `greet`. */
  symbol: string;
  kind: DeclarationKind;
  /** Enclosing declarations, outermost first (class, namespace, impl type…). */
  container: string[];
  /** `container.join(".") + "." + symbol`, or the bare symbol at top level. */
  qualifiedName: string;
  /** 1-based inclusive lines of the whole declaration. */
  lines: [number, number];
  /** Header only (up to the body's opening), whitespace collapsed, never the body. */
  signature: string;
  /** Leading doc comment or docstring as plain text. */
  doc?: string;
  /** Stable id (`sym_…`) from language, path, container chain, name and kind class. */
  symbolId: string;
}

/** One occurrence of an identifier that may name a symbol. */
export interface CodeReference {
  name: string;
  kind: "declaration" | "usage";
  /** 1-based line of the first character. */
  line: number;
  /** 0-based column in UTF-16 code units. */
  column: number;
  /** 1-based line of the last character. */
  endLine: number;
}

/** One imported module (or included file) and the names taken from it. */
export interface CodeImport {
  /** Module specifier or path as written, without quotes or angle brackets. */
  source: string;
  /** Names as the source exports them; `*` for a namespace, `default` for a default import. */
  names: string[];
  /** 1-based line of the import statement. */
  line: number;
  /** Local name → imported name, only where the local binding differs. */
  aliases?: Record<string, string>;
}

/** Everything extracted from one file. */
export interface CodeFacts {
  /** Language id (see `languageForPath`). */
  language: string;
  declarations: CodeDeclaration[];
  references: CodeReference[];
  imports: CodeImport[];
  /**
   * Present when the facts may be partial: `too_large` (not parsed),
   * `syntax_errors` (error recovery ran; what parsed is kept),
   * `references_capped`, `parse failed`, or `<stage> failed: <message>`.
   */
  problems?: string[];
}
