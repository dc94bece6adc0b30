/**
 * The documentation attached to a declaration, as plain text for ranking:
 * the comments directly above it (no blank line between), or for Python a
 * docstring as the first statement of the body.
 */
import type { Node } from "web-tree-sitter";
import type { CodeLanguage } from "./languages.js";

/** Longest doc text kept, in characters. */
export const MAX_DOC_CHARS = 1000;

/** Comment nodes: `comment`, `line_comment`, `block_comment`, … and Haskell's `haddock`. */
function isComment(node: Node, language: CodeLanguage): boolean {
  if (node.type.includes("comment") || node.type === "haddock") return true;
  return language.docAttribute !== undefined && language.docAttribute.test(node.text);
}

/**
 * The node just above `node`: its previous sibling, or where a grammar folds
 * the comment above a declaration into the end of the node before it (a
 * Kotlin import list, Haskell imports), that node's trailing comment.
 */
function nodeAbove(node: Node, language: CodeLanguage): Node | null {
  const sibling = node.previousNamedSibling ?? (node.parent?.startIndex === node.startIndex ? node.parent.previousNamedSibling : null);
  let last = sibling;
  while (last && !isComment(last, language) && endsWith(last, last.lastNamedChild)) last = last.lastNamedChild;
  return last && isComment(last, language) ? last : sibling;
}

/** Whether `child` is the end of `parent` (at most a line break after it). */
function endsWith(parent: Node, child: Node | null): boolean {
  if (!child) return false;
  const end = parent.endPosition;
  return child.endPosition.row === end.row || (end.column === 0 && child.endPosition.row === end.row - 1);
}

/** Comment siblings directly above `outer`, nearest last. */
function leadingComments(outer: Node, language: CodeLanguage): Node[] {
  const comments: Node[] = [];
  let below = outer;
  let sibling = nodeAbove(outer, language);
  while (sibling) {
    if (sibling.endPosition.row < below.startPosition.row - 1) break;
    if (isComment(sibling, language)) {
      const before = sibling.previousSibling;
      // A comment trailing code on its own line belongs to that code.
      if (before && before.endPosition.row === sibling.startPosition.row && !isComment(before, language)) break;
      comments.unshift(sibling);
    } else if (!language.docGapTypes.includes(sibling.type)) {
      break;
    }
    below = sibling;
    sibling = nodeAbove(sibling, language);
  }
  return comments;
}

/** An Elixir `@doc "..."` (or `@doc """ ... """`): the string's text. */
const DOC_ATTRIBUTE = /^\s*@doc\s+(?:~[sS])?("""|"|')([\s\S]*?)\1\s*$/;

/**
 * Strips comment markers (block comments, `//`, `#`, `--` and Haskell's `-- |`,
 * `{- -}`), XML doc tags and shared indentation; an Elixir `@doc` gives its
 * string.
 */
export function cleanCommentText(text: string): string {
  const attribute = DOC_ATTRIBUTE.exec(text);
  if (attribute) return dedent(attribute[2] ?? "").trim();
  const lines = text
    .replace(/^\s*(\/\*+!?|\/\/[/!]?|#+|\{-\s?[|^]?|--+\s?[|^]?)/, "")
    .replace(/(\*+\/|-\})\s*$/, "")
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(\*(?!\/)|\/\/[/!]?|#+|--+)?\s?/, "").trimEnd());
  return lines
    .join("\n")
    .replace(/<\/?[a-zA-Z][^>]*>/g, "")
    .trim();
}

function docstringOf(node: Node): string | undefined {
  const body = node.childForFieldName("body");
  const first = body?.firstNamedChild;
  if (!first || first.type !== "expression_statement") return undefined;
  const literal = first.firstNamedChild;
  if (!literal || literal.type !== "string") return undefined;
  const text = literal.text.replace(/^[rRuUbBfF]*("""|'''|"|')/, "").replace(/("""|'''|"|')$/, "");
  return dedent(text).trim();
}

function dedent(text: string): string {
  const lines = text.split(/\r?\n/);
  const indents = lines.slice(1).filter((line) => line.trim()).map((line) => /^\s*/.exec(line)?.[0].length ?? 0);
  const shared = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line, index) => (index === 0 ? line.trim() : line.slice(shared).trimEnd())).join("\n");
}

function capped(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return text.length <= MAX_DOC_CHARS ? text : `${text.slice(0, MAX_DOC_CHARS - 1)}…`;
}

/**
 * Doc text of a declaration, or undefined.
 * @param node the declaration node (docstrings live in its body)
 * @param outer the outermost wrapper; leading comments sit above it
 */
export function docCommentOf(node: Node, outer: Node, language: CodeLanguage): string | undefined {
  if (language.docStyle === "docstring") {
    const docstring = docstringOf(node);
    if (docstring) return capped(docstring);
  }
  const comments = leadingComments(outer, language);
  if (comments.length === 0) return undefined;
  return capped(comments.map((comment) => cleanCommentText(comment.text)).join("\n").trim());
}
