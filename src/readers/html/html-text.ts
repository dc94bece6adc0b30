/**
 * Text of HTML nodes as a reader sees it: text nodes (entities already
 * decoded by the parser), image alt text, line breaks; dropped elements
 * (scripts, navigation, hidden …) left out. Walks with an explicit stack so
 * deeply nested markup cannot exhaust the call stack.
 */
import type { AnyNode } from "domhandler";
import { isDropped, isElement, isTextNode } from "./html-content.js";

/** Elements that flow within a line; any other element is set off by spaces. */
const INLINE = new Set([
  "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i",
  "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub",
  "sup", "time", "tt", "u", "var", "wbr", "ruby", "rt", "rp", "output", "acronym", "nobr",
]);

/** Whether an element flows within a line of text. */
export function isInlineName(name: string): boolean {
  return INLINE.has(name);
}

/**
 * The text of `nodes` with whitespace as in the source (callers collapse it,
 * or keep it for preformatted text). `<br>` is a line break, an image its
 * alt text, and a block element inside inline content is set off by spaces.
 */
export function nodesText(nodes: readonly AnyNode[]): string {
  const parts: string[] = [];
  const stack: (AnyNode | string)[] = [...nodes].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node === "string") {
      parts.push(node);
    } else if (isTextNode(node)) {
      parts.push(node.data);
    } else if (isElement(node) && !isDropped(node)) {
      if (node.name === "br") parts.push("\n");
      else if (node.name === "img") parts.push(` ${node.attribs.alt ?? ""} `);
      else {
        const gap = INLINE.has(node.name) ? "" : " ";
        stack.push(gap);
        for (let i = node.children.length - 1; i >= 0; i--) {
          const child = node.children[i];
          if (child !== undefined) stack.push(child);
        }
        stack.push(gap);
      }
    }
  }
  return parts.join("");
}

/** Text of a `<pre>`: whitespace kept, the newline right after the tag dropped (as browsers do). */
export function preformattedText(nodes: readonly AnyNode[]): string {
  return nodesText(nodes).replace(/^\n/, "").trimEnd();
}
