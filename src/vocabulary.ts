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

/** Types a type-schema field may have. */
export const FIELD_TYPES = ["text", "number", "integer", "boolean", "date", "datetime", "url", "email", "entity", "text[]"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Names a type-schema field may not take: the filled cell's own keys. */
export const RESERVED_FIELD_NAMES = ["schemaVersion", "cellId", "entityId", "entityIds", "fileIds", "projectId", "text", "updatedAt"] as const;

/** Longest type-schema field name, in characters. */
export const FIELD_NAME_MAX = 64;

/** One field of a type's schema (also of a proposed type). */
export interface SchemaField {
  name: string;
  type: FieldType;
  description: string;
  required: boolean;
}
