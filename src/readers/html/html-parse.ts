/**
 * HTML parsed into a DOM with its element nesting capped while it streams:
 * the parser reports each open and close tag as it reads, so the depth is
 * counted there and parsing stops at the first element past the cap,
 * before the tree (and every walk of it from a node up to the root) grows
 * with it. 2.2 MB of nested `<div>` once took half a minute.
 */
import type { Document } from "domhandler";
import { DomHandler, Parser } from "htmlparser2";
import type { Options } from "htmlparser2";
import { nestsTooDeep } from "../common/refusals.js";

/**
 * Element nesting allowed. Pages nest 20 to 40 deep, framework-heavy ones
 * up to about 100; browsers stop nesting at 512. Walks from an element up
 * to the root stay short at 256.
 */
export const MAX_HTML_NESTING = 256;

/** A DOM builder that counts open elements and refuses one past `limit`. */
class NestingLimitedHandler extends DomHandler {
  readonly #limit: number;
  #depth = 0;

  constructor(limit: number, options: Options) {
    super(undefined, options);
    this.#limit = limit;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.#depth > this.#limit) throw nestsTooDeep(this.#limit);
    super.onopentag(name, attribs);
  }

  override onclosetag(): void {
    this.#depth--;
    super.onclosetag();
  }
}

/**
 * The document of `source`, as htmlparser2's `parseDocument` builds it;
 * throws "document nests deeper than N levels" at the first element
 * nested past `limit`.
 */
export function parseHtml(source: string, options: Options = {}, limit: number = MAX_HTML_NESTING): Document {
  const handler = new NestingLimitedHandler(limit, options);
  new Parser(handler, options).end(source);
  return handler.root;
}
