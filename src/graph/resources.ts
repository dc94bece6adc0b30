import { z } from "zod";

/**
 * The graph's resources as served, as zod schemas: the endpoints' output
 * schemas, the types the reads return, and the shapes tests import.
 */

/** The Cell resource (plus `factionId` and `parentCellId`). */
export const cellSchema = z.object({
  cellId: z.string(),
  entityIds: z.array(z.string()),
  fileIds: z.array(z.string()),
  projectId: z.string(),
  factionId: z.string(),
  parentCellId: z.string().nullable(),
  text: z.string(),
  updatedAt: z.string(),
});
export type Cell = z.infer<typeof cellSchema>;

/** The Entity resource of a direct read. */
export const entitySchema = z.object({
  entityId: z.string(),
  name: z.string(),
  kind: z.string(),
  cellCount: z.number().int(),
  projectId: z.string(),
  typeEntityId: z.string().nullable(),
});
export type Entity = z.infer<typeof entitySchema>;

/** A faction's anchor: each key present only where it applies, never zero. */
export const sourceLocationSchema = z.object({
  lineStart: z.number().int().positive().optional(),
  lineEnd: z.number().int().positive().optional(),
  pdfPageStart: z.number().int().positive().optional(),
  pdfPageEnd: z.number().int().positive().optional(),
  audioStartMs: z.number().int().positive().optional(),
  videoStartMs: z.number().int().positive().optional(),
});

/** The Faction resource (plus `projectId`). */
export const factionSchema = z.object({
  factionId: z.string(),
  factionType: z.string(),
  inferredType: z.string(),
  fileIds: z.array(z.string()),
  sourceLocation: sourceLocationSchema,
  projectId: z.string(),
});
export type Faction = z.infer<typeof factionSchema>;

/**
 * One cell read by id: the cell, its faction (the span it was read from),
 * its file's project path, and the live cells just before and after it in
 * the file's reading order (null at either end).
 */
export const cellContextSchema = z.object({
  cell: cellSchema,
  faction: factionSchema,
  filepath: z.string(),
  neighbours: z.object({ previous: cellSchema.nullable(), next: cellSchema.nullable() }),
});
export type CellContext = z.infer<typeof cellContextSchema>;

/** The File resource (plus `path`, `contentType` and, on failure, `error`). */
export const fileSchema = z.object({
  fileId: z.string(),
  projectId: z.string(),
  name: z.string(),
  filepath: z.string(),
  path: z.string(),
  ext: z.string(),
  fileType: z.string(),
  contentType: z.string(),
  fileSize: z.number().int().nonnegative(),
  chunkIds: z.array(z.string()),
  chunking: z.string(),
  status: z.string(),
  error: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FileResource = z.infer<typeof fileSchema>;

/** An entity's roles after `PUT …/entities/{entityId}/roles`. */
export const entityRolesSchema = z.object({ entityId: z.string(), roles: z.array(z.string()) });

/** One row of the `code_references` listing. */
export const codeReferenceSchema = z.object({
  symbol: z.string(),
  kind: z.enum(["declaration", "usage"]),
  /** The file's project path. */
  filepath: z.string(),
  lines: z.tuple([z.number().int(), z.number().int()]),
  /** The declared symbol, or the one a usage resolves to (null when unresolved or ambiguous). */
  symbolId: z.string().nullable(),
  label: z.string(),
  sublabel: z.string(),
  /** True when several declarations could be the one a usage names. */
  ambiguous: z.boolean(),
});
export type CodeReferenceItem = z.infer<typeof codeReferenceSchema>;
