/**
 * Which parts of an HTML page are its content: the main region (`<main>`,
 * else a lone `<article>`, else `<body>`), without scripts, styles,
 * navigation, page header and footer, sidebars, forms, embedded media and
 * hidden elements. These rules are the HTML and Word readers' guard
 * against boilerplate: site chrome repeated on every page never becomes
 * cells.
 */
import type { AnyNode, Document, Element, ParentNode, Text } from "domhandler";
import { DomUtils } from "htmlparser2";

/** Elements whose content is never document text. */
const DROPPED = new Set([
  "script", "style", "noscript", "template", "head", "title", "meta", "link", "base",
  "nav", "aside", "form", "button", "select", "option", "optgroup", "input", "textarea",
  "iframe", "frame", "frameset", "object", "embed", "svg", "canvas", "audio", "video",
  "picture", "source", "track", "map", "dialog", "menu",
]);

/** ARIA landmarks of site chrome rather than content. */
const DROPPED_ROLES = new Set([
  "navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar",
]);

/**
 * Class or id tokens that mark navigation aids in common site generators,
 * including the "¶" / "#" permalinks they put inside headings.
 */
const DROPPED_TOKENS = new Set([
  "breadcrumb", "breadcrumbs", "skip-link", "skip-to-content", "sidebar", "toc", "table-of-contents",
  "navbar", "site-header", "site-footer", "cookie-banner", "cookie-consent", "pagination",
  "headerlink", "header-anchor", "hash-link", "anchor-link",
]);

/** A `<header>` or `<footer>` inside these belongs to the content, not the page. */
const SECTIONING = new Set(["article", "main", "section"]);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** Whether the node is an element. */
export function isElement(node: AnyNode): node is Element {
  return node.nodeType === 1;
}

/** Whether the node is a text node. */
export function isTextNode(node: AnyNode): node is Text {
  return node.nodeType === 3;
}

function isHidden(el: Element): boolean {
  const { attribs } = el;
  if (attribs.hidden !== undefined || attribs["aria-hidden"] === "true") return true;
  return attribs.style !== undefined && HIDDEN_STYLE.test(attribs.style);
}

function hasDroppedToken(el: Element): boolean {
  const tokens = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`.toLowerCase().split(/\s+/);
  return tokens.some((token) => DROPPED_TOKENS.has(token));
}

/** A header or footer of the page itself (not of an article or section). */
function isPageChrome(el: Element): boolean {
  if (el.name !== "header" && el.name !== "footer") return false;
  for (let up = el.parent; up !== null; up = up.parent) {
    if (isElement(up) && SECTIONING.has(up.name)) return false;
  }
  return true;
}

/** Whether an element and everything inside it is left out of the text. */
export function isDropped(el: Element): boolean {
  if (DROPPED.has(el.name) || isHidden(el) || isPageChrome(el) || hasDroppedToken(el)) return true;
  const role = el.attribs.role?.toLowerCase();
  if (role !== undefined && DROPPED_ROLES.has(role)) return true;
  // Back-links of footnotes ("↑") as Word conversions write them.
  return el.name === "a" && /^#(?:footnote|endnote)-ref-/.test(el.attribs.href ?? "");
}

/** Whether any ancestor of `el` is dropped (a `<main>` inside a hidden block is not the main one). */
function insideDropped(el: Element): boolean {
  if (isDropped(el)) return true;
  for (let up = el.parent; up !== null; up = up.parent) {
    if (isElement(up) && isDropped(up)) return true;
  }
  return false;
}

/**
 * The element whose content is the page's text: the first visible
 * `<main>` (or `role="main"`), else the only outermost visible
 * `<article>`, else `<body>`, else the whole document (a fragment).
 */
export function mainContent(doc: Document): ParentNode {
  const found = DomUtils.findAll((el) => ["main", "article", "body"].includes(el.name) || el.attribs.role === "main", doc.children);
  const visible = found.filter((el) => el.name === "body" || !insideDropped(el));
  const main = visible.find((el) => el.name === "main" || el.attribs.role === "main");
  if (main !== undefined) return main;
  const articles = visible.filter((el) => el.name === "article");
  const outer = articles.filter((el) => !hasArticleAncestor(el));
  if (outer.length === 1 && outer[0] !== undefined) return outer[0];
  return visible.find((el) => el.name === "body") ?? doc;
}

function hasArticleAncestor(el: Element): boolean {
  for (let up = el.parent; up !== null; up = up.parent) if (isElement(up) && up.name === "article") return true;
  return false;
}
