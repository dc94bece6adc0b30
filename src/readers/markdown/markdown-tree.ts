/**
 * The block tree the Markdown reader walks, built from markdown-it's flat
 * token stream: containers (lists, items, quotes, footnote definitions)
 * hold their blocks; paragraphs, headings and table cells hold their
 * inline tokens, which markdown-it keeps flat (emphasis and links are
 * open/close pairs), so their text is one loop however deep they nest.
 * Lines are markdown-it's: 0-based, `end` the line after the block's last
 * (blank lines after a container's content may be counted in it; spans
 * leave them out, see `markdown-items.ts`).
 */
import type { Token } from "markdown-it";

/** One inline token, or a task item's paragraph start with its check taken off. */
export type InlineToken = Pick<Token, "type" | "content" | "children">;

interface Lines {
  /** First line, 0-based. */
  readonly start: number;
  /** The line after the last one. */
  readonly end: number;
}

export type MarkdownBlock = Lines &
  (
    | { readonly type: "paragraph"; readonly inline: readonly InlineToken[] }
    | { readonly type: "heading"; readonly depth: number; readonly inline: readonly InlineToken[] }
    | { readonly type: "code"; readonly value: string; readonly lang: string | undefined; readonly fenced: boolean; readonly unclosed: boolean }
    | { readonly type: "html"; readonly value: string; readonly unclosed: boolean }
    | { readonly type: "yaml"; readonly value: string }
    | { readonly type: "table"; readonly rows: InlineToken[][][] }
    | { readonly type: "list" | "blockquote"; readonly children: MarkdownBlock[] }
    | { readonly type: "listItem"; readonly children: MarkdownBlock[]; checked: boolean | undefined }
    | { readonly type: "footnoteDefinition"; readonly label: string; readonly children: MarkdownBlock[] }
    | { readonly type: "definition"; readonly label: string }
    | { readonly type: "thematicBreak" }
  );

export type ContainerBlock = Extract<MarkdownBlock, { children: MarkdownBlock[] }>;

/** A parsed document: its top-level blocks and where each of its lines starts. */
export interface MarkdownTree {
  readonly children: readonly MarkdownBlock[];
  /** Offset of each line's first character in the parsed text. */
  readonly lineStarts: readonly number[];
}

/** The parsed text, where its lines start, and the parser's decoding of escapes and entities. */
interface Source {
  readonly text: string;
  readonly lineStarts: readonly number[];
  readonly unescape: (s: string) => string;
}

/** Offsets of the line starts of `text`. */
function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

function linesOf(token: Token): Lines {
  const map = token.map ?? [0, 0];
  return { start: map[0], end: map[1] };
}

/** A fence's language: the info string's first word, escapes and entities decoded as the parser decodes text. */
function fenceLanguage(info: string, unescape: (s: string) => string): string | undefined {
  const word = unescape(info).trim().split(/\s+/)[0] ?? "";
  return word.length > 0 ? word : undefined;
}

const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

/** Whether a fence's lines end with a fence that closes it (else it runs to the end of what holds it). */
function fenceClosed(token: Token, text: string, lineStarts: readonly number[]): boolean {
  const [start, end] = token.map ?? [0, 0];
  if (end - start < 2) return false;
  const last = text.slice(lineStarts[end - 1], (lineStarts[end] ?? text.length + 1) - 1);
  const run = FENCE_CLOSE.exec(last)?.[1];
  return run !== undefined && run[0] === token.markup[0] && run.length >= token.markup.length;
}

/** HTML blocks that end at a marker, not at a blank line: the test for their end. */
const HTML_ENDS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^[ \t]*<(?:script|pre|style|textarea)(?=[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^[ \t]*<!--/, /-->/],
  [/^[ \t]*<\?/, /\?>/],
  [/^[ \t]*<!\[CDATA\[/, /\]\]>/],
  [/^[ \t]*<![A-Za-z]/, />/],
];

/** Whether an HTML block never met the marker that ends its kind (so it runs to the end of what holds it). */
function htmlUnclosed(content: string): boolean {
  const kind = HTML_ENDS.find(([opens]) => opens.test(content));
  if (kind === undefined) return false;
  const opener = kind[0].exec(content)?.[0].length ?? 0;
  return !kind[1].test(content.slice(opener));
}

/** A code or HTML block's text ends with its last line, not the line feed after it. */
const withoutFinalNewline = (text: string): string => (text.endsWith("\n") ? text.slice(0, -1) : text);

const TASK_CHECK = /^\[([ xX])\][ \t]/;

/**
 * GFM task items: a list item whose first block is a paragraph starting
 * with `[ ]`, `[x]` or `[X]` and a blank is checked or not, and its
 * paragraph reads without the check (and the one blank after it).
 */
function takeTaskCheck(item: Extract<MarkdownBlock, { type: "listItem" }>, paragraph: MarkdownBlock): MarkdownBlock {
  if (item.children.length > 0 || paragraph.type !== "paragraph") return paragraph;
  const [head, ...rest] = paragraph.inline;
  const check = head?.type === "text" ? TASK_CHECK.exec(head.content) : null;
  if (head === undefined || check === null) return paragraph;
  item.checked = check[1] !== " ";
  const text = head.content.slice(check[0].length);
  const inline = text.length > 0 ? [{ type: "text", content: text, children: null }, ...rest] : rest;
  return { ...paragraph, inline };
}

/** The leaf block a token opens or is, or undefined for tokens that are no leaf block. */
function leafOf(tokens: readonly Token[], i: number, source: Source): MarkdownBlock | undefined {
  const token = tokens[i]!;
  const lines = linesOf(token);
  switch (token.type) {
    case "paragraph_open":
      return { ...lines, type: "paragraph", inline: tokens[i + 1]?.children ?? [] };
    case "heading_open":
      return { ...lines, type: "heading", depth: Number(token.tag.slice(1)), inline: tokens[i + 1]?.children ?? [] };
    case "fence":
      return {
        ...lines,
        type: "code",
        value: withoutFinalNewline(token.content),
        lang: fenceLanguage(token.info, source.unescape),
        fenced: true,
        unclosed: !fenceClosed(token, source.text, source.lineStarts),
      };
    case "code_block":
      return { ...lines, type: "code", value: withoutFinalNewline(token.content), lang: undefined, fenced: false, unclosed: false };
    case "html_block":
      return { ...lines, type: "html", value: withoutFinalNewline(token.content), unclosed: htmlUnclosed(token.content) };
    case "front_matter":
      return { ...lines, type: "yaml", value: token.content };
    case "hr":
      return { ...lines, type: "thematicBreak" };
    case "reference_definition":
      return { ...lines, type: "definition", label: String(token.meta?.label ?? "") };
    default:
      return undefined;
  }
}

/** The container a token opens, or undefined. */
function containerOf(token: Token): ContainerBlock | undefined {
  const lines = linesOf(token);
  switch (token.type) {
    case "bullet_list_open":
    case "ordered_list_open":
      return { ...lines, type: "list", children: [] };
    case "list_item_open":
      return { ...lines, type: "listItem", children: [], checked: undefined };
    case "blockquote_open":
      return { ...lines, type: "blockquote", children: [] };
    case "footnote_reference_open":
      return { ...lines, type: "footnoteDefinition", label: String(token.meta?.label ?? ""), children: [] };
    default:
      return undefined;
  }
}

const CELL_OPENERS = new Set(["th_open", "td_open"]);
const CLOSERS = new Set(["bullet_list_close", "ordered_list_close", "list_item_close", "blockquote_close", "footnote_reference_close"]);

/**
 * The block tree of markdown-it's tokens for `text`. Tables are read row by
 * row: each row's cells are the inline tokens met between its `tr` tokens.
 */
export function blocksOf(tokens: readonly Token[], text: string, unescape: (s: string) => string): MarkdownTree {
  const source: Source = { text, unescape, lineStarts: lineStartsOf(text) };
  const root: MarkdownBlock[] = [];
  const open: ContainerBlock[] = [];
  let row: InlineToken[][] | undefined;
  let table: Extract<MarkdownBlock, { type: "table" }> | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const parent = open.at(-1);
    const siblings = parent?.children ?? root;
    const leaf = leafOf(tokens, i, source);
    if (leaf !== undefined) {
      siblings.push(parent?.type === "listItem" ? takeTaskCheck(parent, leaf) : leaf);
      continue;
    }
    const container = containerOf(token);
    if (container !== undefined) {
      siblings.push(container);
      open.push(container);
    } else if (CLOSERS.has(token.type)) open.pop();
    else if (token.type === "table_open") {
      table = { ...linesOf(token), type: "table", rows: [] };
      siblings.push(table);
    } else if (token.type === "tr_open") {
      row = [];
      table?.rows.push(row);
    } else if (token.type === "inline" && row !== undefined && CELL_OPENERS.has(tokens[i - 1]?.type ?? "")) {
      row.push(token.children ?? []);
    } else if (token.type === "table_close") {
      table = undefined;
      row = undefined;
    }
  }
  return { children: root, lineStarts: source.lineStarts };
}
