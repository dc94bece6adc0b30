/**
 * The one Markdown parser configuration: CommonMark with GFM (tables, task
 * lists, strikethrough, autolinks, footnotes) and YAML front matter, run
 * with linear edits (see `linear-edits.ts`). A whole document and a part of
 * one are parsed by the same call, so they cannot drift apart.
 */
import type { Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { useLinearEdits } from "./linear-edits.js";

const parseOptions = {
  extensions: [gfm(), frontmatter(["yaml"])],
  mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(["yaml"])],
};

/** The syntax tree of `text` (LF line endings), positions counted from its start. */
export function parseMarkdown(text: string): Root {
  useLinearEdits();
  return fromMarkdown(text, parseOptions);
}
