/**
 * A Word package checked before the converter sees it. Its XML parts (the
 * only parts the converter parses, images left out) are inflated here
 * under a running cap on their real size, and their markup is counted
 * (elements, nesting); everything else is emptied. The converter then gets
 * an uncompressed package of checked parts, so it inflates nothing itself
 * and no part it might follow a relationship to escapes the caps.
 *
 * The caps come from what the converter costs: about 2.5 KB of memory per
 * XML element, 55 MB per MiB of Word's usual verbose XML and three times
 * that for dense XML (96 MB of it once took 4.45 GB and the process).
 */
import { DocumentRefused, nestsTooDeep, tooManyElements } from "../common/refusals.js";
import type { InflateBudget } from "../common/zip-archive.js";
import { inflateEntry, storedZip, zipEntries } from "../common/zip-archive.js";

const MIB = 1024 * 1024;

/**
 * Inflated bytes of XML parts allowed, over the whole package: about 800
 * pages of text as Word writes it, and about 1 GB of converter memory.
 */
export const MAX_DOCX_XML_BYTES = 16 * MIB;

/** XML elements allowed over the whole package: the same 1 GB for markup denser than Word's. */
export const MAX_DOCX_XML_ELEMENTS = 400_000;

/**
 * XML nesting allowed in a part. Word nests about 10 levels, plus 4 per
 * table inside a table cell; the converter recurses per level.
 */
export const MAX_DOCX_XML_NESTING = 256;

/** Parts the converter may parse: XML and relationships. */
const XML_PART = /\.(?:xml|rels)$/i;
const EMPTY = new Uint8Array(0);

function decodeXml(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder("utf-16le").decode(data);
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder("utf-16be").decode(data);
  return new TextDecoder().decode(data);
}

/** Index after `token` searched from `from`, or -1 when it does not occur. */
function after(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  return at < 0 ? -1 : at + token.length;
}

/** Index of the `>` closing the tag opened at `start`, skipping quoted attribute values; -1 if none. */
function tagEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === ">") return i;
    if (ch === '"' || ch === "'") {
      i = text.indexOf(ch, i + 1);
      if (i < 0) return -1;
    }
  }
  return -1;
}

/** Index after a comment, CDATA section, declaration or processing instruction at `at`. */
function markupDeclarationEnd(text: string, at: number): number {
  if (text.startsWith("<!--", at)) return after(text, "-->", at + 4);
  if (text.startsWith("<![CDATA[", at)) return after(text, "]]>", at + 9);
  if (text[at + 1] === "?") return after(text, "?>", at + 2);
  return after(text, ">", at + 1);
}

/** Counts one part's elements into `tally` and checks its nesting; one linear pass. */
function scanXml(text: string, tally: { elements: number }): void {
  let depth = 0;
  let at = text.indexOf("<");
  while (at >= 0) {
    const next = text[at + 1];
    let end: number;
    if (next === "!" || next === "?") end = markupDeclarationEnd(text, at);
    else {
      const close = tagEnd(text, at);
      if (close < 0) return;
      if (next === "/") depth = Math.max(0, depth - 1);
      else {
        if (++tally.elements > MAX_DOCX_XML_ELEMENTS) throw tooManyElements(MAX_DOCX_XML_ELEMENTS);
        if (text[close - 1] !== "/" && ++depth > MAX_DOCX_XML_NESTING) throw nestsTooDeep(MAX_DOCX_XML_NESTING);
      }
      end = close + 1;
    }
    if (end < 0) return;
    at = text.indexOf("<", end);
  }
}

/** Inflates one part within the budget; failures other than refusals say the package is invalid. */
function inflatePart(bytes: Uint8Array, entry: Parameters<typeof inflateEntry>[1], budget: InflateBudget): Uint8Array {
  try {
    return inflateEntry(bytes, entry, budget);
  } catch (err) {
    if (err instanceof DocumentRefused) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`not a valid DOCX file: ${reason}`, { cause: err });
  }
}

/**
 * The package in `bytes` rewritten uncompressed with only checked XML
 * parts (other parts empty). Throws "document inflates past 16 MiB",
 * "document holds more than N elements" or "document nests deeper than N
 * levels" past the caps, having inflated no more than the cap; "not a
 * valid DOCX file" when the bytes are no readable ZIP archive.
 */
export function checkedDocxPackage(bytes: Uint8Array): Uint8Array {
  const budget: InflateBudget = { left: MAX_DOCX_XML_BYTES, limit: MAX_DOCX_XML_BYTES };
  const entries = zipEntries(bytes, budget);
  if (entries === undefined) throw new Error("not a valid DOCX file: no ZIP directory found");
  const parts = new Map<string, Uint8Array>();
  const tally = { elements: 0 };
  for (const entry of entries) {
    if (entry.name.endsWith("/")) continue;
    if (!XML_PART.test(entry.name)) {
      parts.set(entry.name, EMPTY);
      continue;
    }
    const data = inflatePart(bytes, entry, budget);
    scanXml(decodeXml(data), tally);
    parts.set(entry.name, data);
  }
  return storedZip(parts);
}
