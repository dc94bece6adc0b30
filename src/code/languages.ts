/**
 * The supported languages as data: which files they cover, which grammar
 * (`.wasm` shipped by the grammar package) parses them, which query files
 * drive extraction, and the few syntax facts the generic extractor needs.
 */

/** How a language attaches documentation to a declaration. */
export type DocStyle = "comment" | "docstring";

/** One supported language. */
export interface CodeLanguage {
  /** Stable id; part of every symbol id, so never rename one. */
  readonly id: string;
  /** Lower-case file name endings, with the dot. */
  readonly extensions: readonly string[];
  /** npm package shipping the grammar's `.wasm`. */
  readonly wasmPackage: string;
  readonly wasmFile: string;
  /** Files under `queries/`, concatenated into one query. */
  readonly queryFiles: readonly string[];
  /** Leading comments, or a docstring as the body's first statement. */
  readonly docStyle: DocStyle;
  /**
   * Nodes that wrap a declaration without being one (`export`, decorators,
   * templates). A signature starts at the outermost wrapper; doc comments
   * sit before it.
   */
  readonly wrapperTypes: readonly string[];
  /** Sibling nodes allowed between a doc comment and its declaration. */
  readonly docGapTypes: readonly string[];
  /** Module-level names in upper snake case are constants, not variables. */
  readonly upperCaseConstants: boolean;
  /**
   * A function may be written as several consecutive clauses (Haskell
   * equations after a signature, Elixir `def` clauses): consecutive
   * declarations of one name, kind and container are one declaration.
   */
  readonly mergesClauses: boolean;
  /** Sibling nodes above a declaration that document it as comments do (Elixir's `@doc "..."`). */
  readonly docAttribute?: RegExp;
}

const COMMON = { docStyle: "comment", wrapperTypes: [], docGapTypes: [], upperCaseConstants: false, mergesClauses: false } as const;
/** Grammars compiled to `.wasm` in one package, for the languages whose own packages ship none that loads (see docs/architecture.md). */
const WASMS = "@cursorless/tree-sitter-wasms";
const JS_WRAPPERS = ["export_statement", "lexical_declaration", "variable_declaration", "expression_statement"];
const TS_WRAPPERS = [...JS_WRAPPERS, "ambient_declaration"];

/** Every supported language, in lookup order. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  {
    ...COMMON,
    id: "typescript",
    extensions: [".ts", ".mts", ".cts"],
    wasmPackage: "tree-sitter-typescript",
    wasmFile: "tree-sitter-typescript.wasm",
    queryFiles: ["ecmascript.scm", "typescript.scm"],
    wrapperTypes: TS_WRAPPERS,
  },
  {
    ...COMMON,
    id: "tsx",
    extensions: [".tsx"],
    wasmPackage: "tree-sitter-typescript",
    wasmFile: "tree-sitter-tsx.wasm",
    queryFiles: ["ecmascript.scm", "typescript.scm", "jsx.scm"],
    wrapperTypes: TS_WRAPPERS,
  },
  {
    ...COMMON,
    id: "javascript",
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    wasmPackage: "tree-sitter-javascript",
    wasmFile: "tree-sitter-javascript.wasm",
    queryFiles: ["ecmascript.scm", "javascript.scm", "jsx.scm"],
    wrapperTypes: JS_WRAPPERS,
  },
  {
    ...COMMON,
    id: "python",
    extensions: [".py", ".pyi"],
    wasmPackage: "tree-sitter-python",
    wasmFile: "tree-sitter-python.wasm",
    queryFiles: ["python.scm"],
    docStyle: "docstring",
    wrapperTypes: ["decorated_definition", "expression_statement"],
    upperCaseConstants: true,
  },
  {
    ...COMMON,
    id: "go",
    extensions: [".go"],
    wasmPackage: "tree-sitter-go",
    wasmFile: "tree-sitter-go.wasm",
    queryFiles: ["go.scm"],
    wrapperTypes: ["type_declaration", "const_declaration", "var_declaration"],
  },
  {
    ...COMMON,
    id: "rust",
    extensions: [".rs"],
    wasmPackage: "tree-sitter-rust",
    wasmFile: "tree-sitter-rust.wasm",
    queryFiles: ["rust.scm"],
    docGapTypes: ["attribute_item"],
  },
  {
    ...COMMON,
    id: "java",
    extensions: [".java"],
    wasmPackage: "tree-sitter-java",
    wasmFile: "tree-sitter-java.wasm",
    queryFiles: ["java.scm"],
  },
  {
    ...COMMON,
    id: "c",
    extensions: [".c", ".h"],
    wasmPackage: "tree-sitter-c",
    wasmFile: "tree-sitter-c.wasm",
    queryFiles: ["c.scm"],
    wrapperTypes: ["type_definition"],
  },
  {
    ...COMMON,
    id: "cpp",
    extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp"],
    wasmPackage: "tree-sitter-cpp",
    wasmFile: "tree-sitter-cpp.wasm",
    queryFiles: ["cpp.scm", "c.scm"],
    wrapperTypes: ["template_declaration"],
  },
  {
    ...COMMON,
    id: "csharp",
    extensions: [".cs"],
    wasmPackage: "tree-sitter-c-sharp",
    wasmFile: "tree-sitter-c_sharp.wasm",
    queryFiles: ["csharp.scm"],
  },
  {
    ...COMMON,
    id: "ruby",
    extensions: [".rb", ".rake", ".gemspec"],
    wasmPackage: "tree-sitter-ruby",
    wasmFile: "tree-sitter-ruby.wasm",
    queryFiles: ["ruby.scm"],
  },
  {
    ...COMMON,
    id: "php",
    extensions: [".php", ".phtml"],
    wasmPackage: "tree-sitter-php",
    wasmFile: "tree-sitter-php.wasm",
    queryFiles: ["php.scm"],
  },
  {
    ...COMMON,
    id: "bash",
    extensions: [".sh", ".bash"],
    wasmPackage: "tree-sitter-bash",
    wasmFile: "tree-sitter-bash.wasm",
    queryFiles: ["bash.scm"],
  },
  {
    ...COMMON,
    id: "kotlin",
    extensions: [".kt", ".kts"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-kotlin.wasm",
    queryFiles: ["kotlin.scm"],
    docGapTypes: ["annotation"],
    upperCaseConstants: true,
  },
  {
    ...COMMON,
    id: "scala",
    extensions: [".scala", ".sc"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-scala.wasm",
    queryFiles: ["scala.scm"],
    docGapTypes: ["annotation"],
  },
  {
    ...COMMON,
    id: "swift",
    extensions: [".swift"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-swift.wasm",
    queryFiles: ["swift.scm"],
    docGapTypes: ["attribute"],
  },
  {
    ...COMMON,
    id: "haskell",
    extensions: [".hs", ".lhs"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-haskell.wasm",
    queryFiles: ["haskell.scm"],
    docGapTypes: ["pragma"],
    mergesClauses: true,
  },
  {
    ...COMMON,
    id: "elixir",
    extensions: [".ex", ".exs"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-elixir.wasm",
    queryFiles: ["elixir.scm"],
    docGapTypes: ["unary_operator"],
    mergesClauses: true,
    docAttribute: /^@doc\s/,
  },
  {
    ...COMMON,
    id: "lua",
    extensions: [".lua"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-lua.wasm",
    queryFiles: ["lua.scm"],
    upperCaseConstants: true,
    // `M.f = function() end`: the function is the declaration, its assignment the header.
    wrapperTypes: ["variable_declaration", "assignment_statement", "expression_list"],
  },
  {
    ...COMMON,
    id: "zig",
    extensions: [".zig"],
    wasmPackage: WASMS,
    wasmFile: "out/tree-sitter-zig.wasm",
    queryFiles: ["zig.scm"],
  },
];

const BY_EXTENSION = new Map<string, CodeLanguage>(
  CODE_LANGUAGES.flatMap((language) => language.extensions.map((ext) => [ext, language] as const)),
);

/** The language of a file path by its extension, or undefined when unsupported. */
export function codeLanguageForPath(path: string): CodeLanguage | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = base.lastIndexOf(".");
  return dot < 0 ? undefined : BY_EXTENSION.get(base.slice(dot));
}

/** The language id of a file path (e.g. `typescript`), or undefined. */
export function languageForPath(path: string): string | undefined {
  return codeLanguageForPath(path)?.id;
}
