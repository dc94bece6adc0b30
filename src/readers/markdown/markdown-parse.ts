/**
 * The one Markdown parser configuration: CommonMark with GFM tables, task
 * lists, strikethrough and footnotes, and YAML front matter. A whole
 * document and a part of one are parsed by the same call, so they cannot
 * drift apart.
 *
 * The parser is markdown-it: a CommonMark parser kept by the same people
 * for a decade, whose block tokens carry their line ranges, which is all
 * the reader keeps of positions (a block's lines and text; inline text has
 * no positions in a reading). On vuejs/core's changelogs it takes a fifteenth
 * of the CPU micromark with the mdast GFM extensions took (about 0.15 s
 * against 2.1 s for 644 KB), and that parse was the largest part of the
 * reader thread's time in a cold ingest. Footnotes come from its own
 * organisation's plugin; front matter is a block rule of ours (see
 * `frontMatter`). The tokens become the small block tree of
 * `markdown-tree.ts`, which is what the rest of the reader walks.
 */
import MarkdownIt from "markdown-it";
import type { MarkdownIt as Parser, StateBlock } from "markdown-it";
import footnote from "markdown-it-footnote";
import { MAX_MARKDOWN_NESTING } from "./markdown-nesting.js";
import { blocksOf } from "./markdown-tree.js";
import type { MarkdownTree } from "./markdown-tree.js";

const FRONT_MATTER_FENCE = /^---[ \t]*$/;

/**
 * YAML front matter: `---` on the document's first line up to the next
 * `---` line, both alone on their line (trailing blanks allowed). Front
 * matter that is never closed is no front matter: the lines read as
 * Markdown. The published front-matter plugin closes an open block at the
 * end of the document and also ends one at `...` or at longer fences, so
 * a document would read differently from how GitHub shows it; and the
 * incremental re-reading relies on an unclosed block being no block
 * (`markdown-blocks.ts`).
 */
function frontMatter(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (startLine !== 0 || state.blkIndent !== 0 || !FRONT_MATTER_FENCE.test(lineAt(state, 0))) return false;
  let close = 1;
  while (close < endLine && !FRONT_MATTER_FENCE.test(lineAt(state, close))) close++;
  if (close >= endLine) return false;
  if (silent) return true;
  const token = state.push("front_matter", "", 0);
  token.map = [0, close + 1];
  token.block = true;
  token.content = close > 1 ? state.src.slice(state.bMarks[1], state.eMarks[close - 1]) : "";
  state.line = close + 1;
  return true;
}

function lineAt(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line], state.eMarks[line]);
}

/**
 * The footnote plugin's definitions carry no line range (its renderer moves
 * them to the document's end); the reader keeps them where they stand, so
 * the rule is wrapped to give the opening token the lines it read. A
 * definition also ends a quote's or list item's lazy paragraph line, as in
 * GFM (the plugin lets it end only a paragraph of its own container).
 */
const FOOTNOTE_INTERRUPTS = ["paragraph", "reference", "blockquote", "list"];

function mapFootnoteDefinitions(md: Parser): void {
  const rule = md.block.ruler.__rules__.find((r) => r.name === "footnote_def");
  if (rule === undefined) throw new Error("markdown-it-footnote has no footnote_def rule");
  const read = rule.fn;
  md.block.ruler.at(
    "footnote_def",
    (state, startLine, endLine, silent) => {
      const first = state.tokens.length;
      if (!read(state, startLine, endLine, silent)) return false;
      const open = state.tokens[first];
      if (!silent && open !== undefined) open.map = [startLine, state.line];
      return true;
    },
    { alt: FOOTNOTE_INTERRUPTS },
  );
}

/**
 * Links as written: a reading keeps a link's text, never its target, so
 * the parser's normalisation of targets (URL parsing, punycode,
 * percent-encoding; a fifth of its time on vuejs/core's Markdown) buys
 * nothing, and its rewrite of an autolink's shown text and its refusal of
 * `javascript:` and similar targets (left as bracketed text) would read
 * differently from GFM, where such a link is a link with its text as
 * written.
 */
function keepLinksAsWritten(md: Parser): void {
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  md.validateLink = () => true;
}

/**
 * Levels the parser opens before it drops the rest of a document: a list
 * item opens two (the list and the item), a quote one, and the reader
 * refuses more than `MAX_MARKDOWN_NESTING` containers before parsing, so
 * every document it parses fits (markdown-it's default of 100 cut lists
 * nested 50 deep).
 */
const MAX_PARSER_NESTING = 2 * MAX_MARKDOWN_NESTING + 8;

/**
 * HTML blocks and inline HTML are read (their text is kept). Bare URLs
 * with a scheme are taken as links while the inline text is read, as GFM
 * does, so `_` or `*` inside one is no emphasis; the later pass that
 * searches all text again for `www.` and e-mail links is off (a link reads
 * as the text it was found in, and that text holds no emphasis marks that
 * GFM would treat otherwise). Typographic replacements are off, so text
 * stays as written. Inline footnotes (`^[…]`) are not GFM, and the plugin's
 * move of definitions to the end is not wanted. Link definitions stay in
 * the tokens: the incremental re-reading needs to know which part
 * defines which label.
 */
function createParser(): Parser {
  const md = MarkdownIt("default", { html: true, linkify: true, typographer: false, maxNesting: MAX_PARSER_NESTING });
  md.use(footnote);
  md.inline.ruler.disable(["footnote_inline"]);
  md.core.ruler.disable(["footnote_tail", "strip_references", "linkify"]);
  mapFootnoteDefinitions(md);
  keepLinksAsWritten(md);
  md.block.ruler.before("table", "front_matter", frontMatter, { alt: ["paragraph", "reference", "blockquote", "list"] });
  return md;
}

const parser = createParser();

/** The block tree of `text` (LF line endings), lines counted from its start. */
export function parseMarkdown(text: string): MarkdownTree {
  return blocksOf(parser.parse(text, {}), text, parser.utils.unescapeAll);
}
