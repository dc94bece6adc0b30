/**
 * Plain text of Markdown blocks and inline tokens: markup dropped, the
 * words a reader sees kept (link text, inline code, image alt text).
 */
import { lookupTable } from "../../lookup.js";
import type { ContainerBlock, InlineToken, MarkdownBlock } from "./markdown-tree.js";

const ENTITIES = lookupTable<string>({
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
});

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const hex = name[1] === "x" || name[1] === "X";
      const code = Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * Text of raw HTML with comments and tags removed and common entities
 * decoded. Scans with `indexOf` so unclosed `<` or `<!--` runs stay linear.
 */
export function htmlText(html: string): string {
  let out = "";
  let pos = 0;
  while (pos < html.length) {
    const lt = html.indexOf("<", pos);
    if (lt < 0) break;
    out += html.slice(pos, lt);
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      if (end < 0) return decodeEntities(out);
      pos = end + 3;
    } else if (/^<[a-z/!?]/i.test(html.slice(lt, lt + 2))) {
      const end = html.indexOf(">", lt + 1);
      if (end < 0) {
        pos = lt;
        break;
      }
      pos = end + 1;
      out += " ";
    } else {
      out += "<";
      pos = lt + 1;
    }
  }
  return decodeEntities(out + html.slice(pos));
}

/** Text of an inline token that a reader sees; markup (emphasis, links, footnote marks) reads as nothing. */
function tokenText(token: InlineToken): string {
  switch (token.type) {
    case "text":
    case "text_special":
    case "code_inline":
      return token.content;
    case "softbreak":
    case "hardbreak":
      return "\n";
    case "html_inline":
      return htmlText(token.content);
    case "image":
      return altText(token.children ?? []);
    default:
      return "";
  }
}

/**
 * An image's alternative text: the text of its description as written,
 * inline code and raw HTML included, nested images by their own
 * description. Walked with a stack: descriptions nest.
 */
function altText(tokens: readonly InlineToken[]): string {
  let out = "";
  const stack: InlineToken[] = [...tokens].reverse();
  for (let token = stack.pop(); token !== undefined; token = stack.pop()) {
    if (token.type === "image") stack.push(...[...(token.children ?? [])].reverse());
    else if (token.type === "softbreak") out += "\n";
    else if (token.type === "text" || token.type === "text_special" || token.type === "code_inline" || token.type === "html_inline") out += token.content;
  }
  return out;
}

/** Plain text of a run of inline tokens (markdown-it keeps them flat, so this is one loop). */
export function inlineText(tokens: readonly InlineToken[]): string {
  let out = "";
  for (const token of tokens) out += tokenText(token);
  return out;
}

/** Text of a block that holds no blocks, or undefined for a container. */
function leafText(block: MarkdownBlock): string | undefined {
  switch (block.type) {
    case "paragraph":
    case "heading":
      return inlineText(block.inline);
    case "code":
      return block.value;
    case "html":
      return htmlText(block.value);
    case "table":
      return block.rows.map((row) => row.map(inlineText).join("\n")).join("\n");
    case "thematicBreak":
    case "definition":
    case "yaml":
      return "";
    default:
      return undefined;
  }
}

/**
 * Plain text of a block and the blocks inside it, separated by a line break
 * so sentences of adjacent blocks do not run together. Walks with an
 * explicit stack: containers nest deep (`>>>>…`).
 */
export function blockText(root: MarkdownBlock): string {
  const parts: string[] = [];
  const stack: (MarkdownBlock | string)[] = [root];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === "string") {
      parts.push(item);
      continue;
    }
    const leaf = leafText(item);
    if (leaf !== undefined) {
      parts.push(leaf);
      continue;
    }
    const children = (item as ContainerBlock).children;
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push(children[i]!);
      if (i > 0) stack.push("\n");
    }
  }
  return parts.join("");
}
