/**
 * Documents written to attack the page that shows them. Every payload, if
 * it ever ran, would set `window.__pksPwned` (and most would also open a
 * dialog), so a test can tell "rendered as text" from "ran" and from
 * "silently dropped": the visible text of each payload must be on the page.
 */

/** The global a payload sets if it runs. */
export const PWNED = "__pksPwned";

const set = (how: string) => `window.${PWNED}='${how}';alert('${how}')`;

/** A Markdown document whose headings, list fields and paragraphs are all hostile. */
export const HOSTILE_MARKDOWN = [
  `# Hostile notes <script>${set("heading")}</script>`,
  "",
  `<script>${set("script")}</script>`,
  "",
  `The image <img src=x onerror="${set("img")}"> and the frame <iframe src="javascript:${set("iframe")}"></iframe> sit in this paragraph.`,
  "",
  `A raw link <a href="javascript:${set("anchor")}">click me</a> and Markdown links [x](javascript:alert(1)) and [y](JaVaScRiPt:${set("md")}).`,
  "",
  `Attribute breakouts: " onmouseover="${set("dq")}" x=" and ' onfocus='${set("sq")}' autofocus x=' end.`,
  "",
  `<svg onload="${set("svg")}"><circle r="5"/></svg> <style>body { display: none }</style>`,
  "",
  "## Hostile record",
  "",
  `- Owner: "><script>${set("field")}</script>`,
  `- Link: javascript:${set("field-link")}`,
  `- Homepage: <a href="javascript:${set("field-anchor")}">home</a>`,
  "",
].join("\n");

/**
 * An HTML document: its tags are read away, but its escaped text decodes to
 * literal markup (`&lt;script&gt;` becomes `<script>` in the cells).
 */
export const HOSTILE_HTML = [
  "<!doctype html><html><head><title>Escaped payloads</title>",
  `<script>${set("html-script")}</script></head><body>`,
  "<h1>Escaped payloads</h1>",
  `<p>Decoded markup: &lt;script&gt;${set("decoded")}&lt;/script&gt; and &lt;img src=x onerror=&quot;${set("decoded-img")}&quot;&gt;.</p>`,
  `<p><a href="javascript:${set("html-anchor")}">a javascript link</a> in the source.</p>`,
  "</body></html>",
].join("\n");

/** Strings of the payloads that must show on the page as text. */
export const VISIBLE_PAYLOADS = [`<script>${set("script")}</script>`, `onerror="${set("img")}"`, "[x](javascript:alert(1))"];

/** A plain-text file: read as it is, so its cells keep every character of markup. */
export const HOSTILE_TEXT = [
  `Plain payloads: <script>${set("txt-script")}</script> <img src=x onerror="${set("txt-img")}">`,
  "",
  `Links in text: [x](javascript:alert(1)) <a href="javascript:${set("txt-anchor")}">go</a> "><b onmouseover="${set("txt-b")}">bold</b>`,
  "",
].join("\n");

/** A path that is itself an attribute breakout and a tag (pks accepts it: it is a legal file name). */
export const HOSTILE_PATH = `notes/"><img src=x onerror="${set("path")}">.md`;
