/**
 * Plain text of Markdown nodes: markup dropped, the words a reader sees
 * kept (link text, inline code, image alt text).
 */
import type { Nodes } from "mdast";
import { lookupTable } from "../../lookup.js";

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

/** Text of a node that has no children to walk, or undefined for a parent. */
function leafText(node: Nodes): string | undefined {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
      return node.value;
    case "html":
      return htmlText(node.value);
    case "image":
    case "imageReference":
      return node.alt ?? "";
    case "break":
      return "\n";
    case "footnoteReference":
    case "definition":
    case "thematicBreak":
    case "yaml":
      return "";
    default:
      return "children" in node ? undefined : "";
  }
}

/** Parents whose children run together on one line. */
const PHRASING_PARENTS = new Set([
  "paragraph",
  "heading",
  "emphasis",
  "strong",
  "delete",
  "link",
  "linkReference",
  "tableCell",
]);

/**
 * Plain text of a node and its descendants. Block children are separated by
 * a line break so sentences of adjacent blocks do not run together. Walks
 * with an explicit stack: Markdown nests thousands deep (`>>>>…`, `***…`).
 */
export function inlineText(root: Nodes): string {
  const parts: string[] = [];
  const stack: (Nodes | string)[] = [root];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === "string") {
      parts.push(item);
      continue;
    }
    const leaf = leafText(item);
    if (leaf !== undefined) {
      parts.push(leaf);
    } else if ("children" in item) {
      const separator = PHRASING_PARENTS.has(item.type) ? "" : "\n";
      const children: readonly Nodes[] = item.children;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (child !== undefined) stack.push(child);
        if (i > 0 && separator.length > 0) stack.push(separator);
      }
    }
  }
  return parts.join("");
}
