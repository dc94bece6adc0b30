/**
 * Markdown (CommonMark + GFM tables, task lists, strikethrough, YAML front
 * matter): one faction per top-level block, cells per sentence, list item,
 * table row, code-block head and front-matter key, each under its heading.
 */
import type { RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import type { BlockSpan } from "../common/document-builder.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { fenceMediaType } from "../common/fence-media-type.js";
import { frontMatterCells } from "./front-matter.js";
import { blockCells } from "./markdown-cells.js";
import { inlineText } from "./markdown-inline.js";
import { useLinearEdits } from "./linear-edits.js";
import { checkMarkdownNesting } from "./markdown-nesting.js";
import type { FactionType, Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";
import { capCellText, collapseWhitespace } from "../common/sentences.js";

const MARKDOWN_TYPES = new Set(["text/markdown", "text/x-markdown"]);
const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdown", ".mkd", ".mkdn"];

const parseOptions = {
  extensions: [gfm(), frontmatter(["yaml"])],
  mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(["yaml"])],
};

/** Faction type of a top-level block; undefined for blocks that carry no content. */
function factionTypeOf(node: RootContent): FactionType | undefined {
  switch (node.type) {
    case "heading":
      return "heading";
    case "paragraph":
    case "blockquote":
    case "html":
    case "footnoteDefinition":
      return "text";
    case "list":
      return "list";
    case "table":
      return "table";
    case "code":
      return "code_block";
    case "yaml":
      return "config";
    default:
      return undefined;
  }
}

function inferredTypeOf(node: RootContent): string {
  if (node.type === "code") return fenceMediaType(node.lang);
  if (node.type === "yaml") return "application/yaml";
  if (node.type === "html") return "text/html";
  return "text/markdown";
}

function spanOf(node: RootContent, factionType: FactionType, source: string): BlockSpan {
  const pos = node.position;
  return {
    factionType,
    inferredType: inferredTypeOf(node),
    location: pos === undefined ? {} : { lineStart: pos.start.line, lineEnd: pos.end.line },
    text: pos?.start.offset === undefined ? "" : source.slice(pos.start.offset, pos.end.offset),
  };
}

function addBlock(builder: DocumentBuilder, node: RootContent, source: string): void {
  const factionType = factionTypeOf(node);
  if (factionType === undefined) return;
  const span = spanOf(node, factionType, source);
  if (node.type === "heading") {
    const title = capCellText(collapseWhitespace(inlineText(node)))[0] ?? "";
    builder.heading(node.depth, title, span);
  } else if (node.type === "yaml") {
    builder.block(span, frontMatterCells(node.value));
  } else {
    builder.block(span, blockCells(node));
  }
}

/**
 * Refuses noise ("file is not text") and nesting past
 * `MAX_MARKDOWN_NESTING` before parsing: both cost the parser far more
 * than their size. The parser runs with linear edits (see
 * `linear-edits.ts`), so long nested lists cost no more than their length.
 */
function readMarkdown(input: ReaderInput): ReadOutput {
  const source = readableText(input.bytes);
  const builder = new DocumentBuilder();
  // Bytes that are not text (a NUL) give an empty reading, as the secret scan skipped them.
  if (source === undefined) return builder.finish();
  checkMarkdownNesting(source);
  useLinearEdits();
  const tree = fromMarkdown(source, parseOptions);
  for (const node of tree.children) addBlock(builder, node, source);
  return builder.finish();
}

/** Reader for Markdown files (`text/markdown`, `.md`, `.markdown`, …). */
export const markdownReader: Reader = {
  name: "markdown",
  accepts({ path, contentType }) {
    const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
    const lower = path.toLowerCase();
    return MARKDOWN_TYPES.has(mediaType) || MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext));
  },
  read: readMarkdown,
};
