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

/** Most fields one schema (a type's or an artifact's) may have. */
export const SCHEMA_FIELDS_MAX = 200;

/**
 * Names no field may take, ignoring case: the keys JavaScript objects carry
 * themselves. A record keyed by one would be dropped or would reach an
 * object's prototype when read back into an object.
 */
export const PROTOTYPE_NAMES = ["__proto__", "constructor", "prototype"] as const;

/** One field of a type's schema (also of a proposed type). */
export interface SchemaField {
  name: string;
  type: FieldType;
  description: string;
  required: boolean;
}

/**
 * Types an artifact-schema field may have: the JSON value kinds a submitted
 * record carries (`integer` is a number with no fraction; the list types
 * hold only that kind of element).
 */
export const ARTIFACT_FIELD_TYPES = ["string", "number", "integer", "boolean", "string[]", "number[]"] as const;
export type ArtifactFieldType = (typeof ARTIFACT_FIELD_TYPES)[number];

/**
 * Names an artifact-schema field may not take: the type-schema reserved
 * names, the record resource's own keys (exports commonly flatten a record
 * beside them) and `honeypot`, the submission's trap field, so a form built
 * from a schema never shows a real field under the trap's name.
 */
export const RESERVED_RECORD_FIELD_NAMES = [...RESERVED_FIELD_NAMES, "recordId", "schemaId", "createdAt", "data", "honeypot"] as const;

/** One field of an artifact schema: the shape a submitted record is checked against. */
export interface ArtifactSchemaField {
  name: string;
  type: ArtifactFieldType;
  required: boolean;
}
