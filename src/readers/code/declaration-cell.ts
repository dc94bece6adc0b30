/**
 * The one claim a declaration makes: what it is, its header, where it lives
 * and the first sentence of its doc. No line number, so a declaration that
 * only moves keeps its cell.
 */
import type { CodeDeclaration } from "../../code/code-facts.js";
import { collapseWhitespace, splitSentences } from "../common/sentences.js";

/** Longest signature or doc summary kept in a cell. */
const MAX_PART_CHARS = 300;

function capped(text: string): string {
  return text.length <= MAX_PART_CHARS ? text : `${text.slice(0, MAX_PART_CHARS - 1).trimEnd()}…`;
}

/** First sentence of the doc's first paragraph, or undefined. */
export function docSummary(doc: string | undefined): string | undefined {
  if (!doc) return undefined;
  // Only the head is segmented: the summary never needs more, and segmenting is not free.
  const paragraph = (doc.split(/\n\s*\n|¶/)[0] ?? "").slice(0, 2 * MAX_PART_CHARS);
  const first = splitSentences(paragraph)[0];
  return first ? capped(collapseWhitespace(first)) : undefined;
}

/**
 * `method Greeter.greet — greet(name: string): string — src/greet.ts — Greets one person.`
 * @param declaration the declaration
 * @param path the file's project path
 */
export function declarationCellText(declaration: CodeDeclaration, path: string): string {
  const parts = [`${declaration.kind} ${declaration.qualifiedName}`];
  const signature = collapseWhitespace(declaration.signature);
  if (signature) parts.push(capped(signature));
  parts.push(path);
  const summary = docSummary(declaration.doc);
  if (summary) parts.push(summary);
  return parts.join(" — ");
}
