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

/**
 * GFM's tree extensions without their one tree transform: after parsing,
 * `mdast-util-gfm-autolink-literal` searches every text node again with
 * four regular expressions and wraps bare URLs and e-mail addresses the
 * tokenizer left as text into links whose text is the matched text (the
 * rest of the node stays text beside them). The reader keeps only a
 * block's text (`inlineText`: a link reads as its text, siblings joined
 * with nothing between), so those links read exactly as the text they
 * wrap, and the search was 14 % of parsing vuejs/core's changelogs. The
 * tokenizer's own literal autolinks (which do change what is emphasis) stay.
 */
const gfmTreeExtensions = gfmFromMarkdown().map((extension) => {
  const transforms = extension.transforms?.filter((t) => t.name !== "transformGfmAutolinkLiterals");
  return transforms === undefined ? extension : { ...extension, transforms };
});

const parseOptions = {
  extensions: [gfm(), frontmatter(["yaml"])],
  mdastExtensions: [...gfmTreeExtensions, frontmatterFromMarkdown(["yaml"])],
};

/** The syntax tree of `text` (LF line endings), positions counted from its start. */
export function parseMarkdown(text: string): Root {
  useLinearEdits();
  return fromMarkdown(text, parseOptions);
}
