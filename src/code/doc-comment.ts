/**
 * The documentation attached to a declaration, as plain text for ranking:
 * the comments directly above it (no blank line between), or for Python a
 * docstring as the first statement of the body.
 */
import type { Node } from "web-tree-sitter";
import type { CodeLanguage } from "./languages.js";

/** Longest doc text kept, in characters. */
export const MAX_DOC_CHARS = 1000;

function isComment(node: Node): boolean {
  return node.type.includes("comment");
}

/** Comment siblings directly above `outer`, nearest last. */
function leadingComments(outer: Node, language: CodeLanguage): Node[] {
  const comments: Node[] = [];
  let below = outer;
  let sibling = outer.previousNamedSibling;
  while (sibling) {
    if (sibling.endPosition.row < below.startPosition.row - 1) break;
    if (isComment(sibling)) {
      const before = sibling.previousSibling;
      // A comment trailing code on its own line belongs to that code.
      if (before && before.endPosition.row === sibling.startPosition.row && !isComment(before)) break;
      comments.unshift(sibling);
    } else if (!language.docGapTypes.includes(sibling.type)) {
      break;
    }
    below = sibling;
    sibling = sibling.previousNamedSibling;
  }
  return comments;
}

/** Strips comment markers, XML doc tags and shared indentation. */
export function cleanCommentText(text: string): string {
  const lines = text
    .replace(/^\s*(\/\*+!?|\/\/[/!]?|#+)/, "")
    .replace(/\*+\/\s*$/, "")
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(\*(?!\/)|\/\/[/!]?|#+)?\s?/, "").trimEnd());
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
