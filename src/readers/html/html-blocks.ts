/**
 * The blocks of an HTML document in reading order: headings, paragraphs
 * (and loose text between blocks), lists, tables and preformatted text,
 * each with its claims. Containers (`div`, `section`, layout tables …) are
 * walked through; inline markup is read as text.
 */
import type { AnyNode, Element, ParentNode } from "domhandler";
import { isBoilerplate } from "../common/boilerplate.js";
import { isDropped, isElement, isTextNode } from "./html-content.js";
import { listCells } from "./html-list.js";
import { readTable, tableCells, tablePlainText } from "./html-table.js";
import { nodesText, preformattedText } from "./html-text.js";
import { codeCells } from "../markdown/markdown-cells.js";
import type { FactionType } from "../reader.js";
import { capCellText, collapseWhitespace, splitSentences } from "../common/sentences.js";

export type HtmlBlockKind = "heading" | "text" | "list" | "table" | "code";

/** Faction type of each kind of block. */
export const BLOCK_FACTION_TYPE: Record<HtmlBlockKind, FactionType> = {
  heading: "heading",
  text: "text",
  list: "list",
  table: "table",
  code: "code_block",
};

/** One block: the nodes it spans, its claims and a plain-text rendering. */
export interface HtmlBlock {
  kind: HtmlBlockKind;
  /** Headings: 1–6. */
  level?: number;
  first: AnyNode;
  last: AnyNode;
  cells: string[];
  plain: string;
  /** Preformatted blocks: the language named by a `language-*` class. */
  lang?: string;
}

export interface HtmlBlockOptions {
  /** Let a table's unmarked first row count as its header when it reads as one. */
  guessTableHeaders: boolean;
}

/** Elements that start a block of their own. */
const BLOCK = new Set([
  "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "div",
  "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
  "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p", "pre", "section",
  "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
]);

/** Containers nested deeper than this are read as one block of text. */
const MAX_DEPTH = 100;

/** Elements under `root` that hold a block somewhere inside, found bottom-up without recursion. */
function blockHolders(root: ParentNode): WeakSet<Element> {
  const order: Element[] = [];
  const stack: AnyNode[] = [...root.children];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isElement(node)) continue;
    order.push(node);
    for (const child of node.children) stack.push(child);
  }
  const holders = new WeakSet<Element>();
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i] as Element;
    const holds = el.children.some((c) => isElement(c) && !isDropped(c) && (BLOCK.has(c.name) || holders.has(c)));
    if (holds) holders.add(el);
  }
  return holders;
}

function languageOf(pre: Element): string | undefined {
  const code = pre.children.find((c): c is Element => isElement(c) && c.name === "code");
  const classes = `${pre.attribs.class ?? ""} ${code?.attribs.class ?? ""}`;
  return /(?:^|\s)lang(?:uage)?-([\w+#.-]+)/.exec(classes)?.[1];
}

/** Tables used for page layout hold headings or further tables; they are walked, not read as data. */
function isLayoutTable(table: Element): boolean {
  const stack: AnyNode[] = [...table.children];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isElement(node)) continue;
    if (node.name === "table" || /^h[1-6]$/.test(node.name)) return true;
    for (const child of node.children) stack.push(child);
  }
  return false;
}

class BlockWalker {
  readonly blocks: HtmlBlock[] = [];
  #run: AnyNode[] = [];
  readonly #holders: WeakSet<Element>;
  readonly #options: HtmlBlockOptions;

  constructor(root: ParentNode, options: HtmlBlockOptions) {
    this.#holders = blockHolders(root);
    this.#options = options;
  }

  walk(container: ParentNode, depth: number): void {
    for (const child of container.children) {
      if (isTextNode(child)) {
        this.#run.push(child);
      } else if (isElement(child) && !isDropped(child)) {
        if (!BLOCK.has(child.name) && !this.#holders.has(child)) {
          this.#run.push(child);
        } else {
          this.#flush();
          this.#element(child, depth);
        }
      }
    }
    this.#flush();
  }

  #element(el: Element, depth: number): void {
    if (depth >= MAX_DEPTH) return this.#text([el]);
    if (/^h[1-6]$/.test(el.name)) return this.#heading(el);
    switch (el.name) {
      case "p":
        return this.#text([el]);
      case "ul":
      case "ol":
      case "dl": {
        const cells = listCells(el);
        return this.#add({ kind: "list", first: el, last: el, cells, plain: cells.map((c) => `- ${c}`).join("\n") });
      }
      case "table":
        return isLayoutTable(el) ? this.walk(el, depth + 1) : this.#table(el);
      case "pre":
        return this.#code(el);
      case "hr":
        return;
      default:
        return this.walk(el, depth + 1);
    }
  }

  #heading(el: Element): void {
    const title = capCellText(collapseWhitespace(nodesText(el.children)))[0] ?? "";
    this.#add({ kind: "heading", level: Number(el.name.slice(1)), first: el, last: el, cells: [title], plain: title });
  }

  #table(el: Element): void {
    const content = readTable(el, this.#options.guessTableHeaders);
    this.#add({ kind: "table", first: el, last: el, cells: tableCells(content), plain: tablePlainText(content) });
  }

  #code(el: Element): void {
    const text = preformattedText(el.children);
    const lang = languageOf(el);
    const block: HtmlBlock = { kind: "code", first: el, last: el, cells: codeCells({ type: "code", value: text }), plain: text };
    this.#add(lang === undefined ? block : { ...block, lang });
  }

  /** A paragraph, or loose text and inline elements between blocks. */
  #text(nodes: AnyNode[]): void {
    const plain = collapseWhitespace(nodesText(nodes));
    const first = nodes[0];
    const last = nodes.at(-1);
    if (plain.length === 0 || first === undefined || last === undefined) return;
    const cells = isBoilerplate(plain) ? [] : splitSentences(plain);
    this.#add({ kind: "text", first, last, cells, plain });
  }

  #flush(): void {
    const run = this.#run;
    this.#run = [];
    const blank = (n: AnyNode | undefined): boolean => n !== undefined && isTextNode(n) && n.data.trim().length === 0;
    while (blank(run[0])) run.shift();
    while (blank(run.at(-1))) run.pop();
    if (run.length > 0) this.#text(run);
  }

  #add(block: HtmlBlock): void {
    if (block.kind !== "heading" && block.plain.length === 0) return;
    this.blocks.push(block);
  }
}

/** The blocks under `root` (a document, `<body>`, `<main>` …) in reading order. */
export function htmlBlocks(root: ParentNode, options: HtmlBlockOptions): HtmlBlock[] {
  const walker = new BlockWalker(root, options);
  walker.walk(root, 0);
  return walker.blocks;
}
