/**
 * The vocabularies of the stored graph, as data: every layer (readers that
 * produce rows, the store that keeps them, reads that filter on them) names
 * the same words from here.
 */

/** Kinds of file span . */
export const FACTION_TYPES = [
  "code_unit",
  "text",
  "heading",
  "list",
  "table",
  "code_block",
  "page",
  "media_segment",
  "config",
  "row",
] as const;
export type FactionType = (typeof FACTION_TYPES)[number];

/**
 * Where a span sits in its file. 1-based, inclusive. A key that does not
 * apply to the asset is absent, never zero.
 */
export interface SourceLocation {
  lineStart?: number;
  lineEnd?: number;
  pdfPageStart?: number;
  pdfPageEnd?: number;
  audioStartMs?: number;
  videoStartMs?: number;
}

/** Entity kinds. */
export const ENTITY_KINDS = [
  "person",
  "organization",
  "product",
  "place",
  "event",
  "concept",
  "document",
  "file",
  "module",
  "symbol",
  "category",
  "record",
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
