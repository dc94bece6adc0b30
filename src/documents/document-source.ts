/**
 * What `document_ingest` is asked to read: its `source` string is a URL (it
 * starts with a scheme), a file id of the project (`fil_` + 22 base62
 * characters), or else a path under the served folder. A path whose first
 * segment holds a colon reads as a scheme; write it `./name:with-colon.md`.
 */

/** A source, told apart by its shape alone (nothing is looked up here). */
export type DocumentSource =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "file"; readonly fileId: string }
  | { readonly kind: "path"; readonly path: string };

/** A URL scheme as WHATWG URL reads one: a letter, then letters, digits, `+`, `-` or `.`, then a colon. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const FILE_ID = /^fil_[0-9A-Za-z]{22}$/;

/** Tells the source's kind from its shape. */
export function parseSource(source: string): DocumentSource {
  const trimmed = source.trim();
  if (SCHEME.test(trimmed)) return { kind: "url", url: trimmed };
  if (FILE_ID.test(trimmed)) return { kind: "file", fileId: trimmed };
  return { kind: "path", path: source };
}
