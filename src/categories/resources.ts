/**
 * The wire shapes of typed knowledge (spec "Type schema", "Category
 * proposal", filled cells), as zod schemas: endpoints and actions declare
 * them as their output, and tests check every answer against them.
 */
import { z } from "zod";
import { FIELD_TYPES } from "../vocabulary.js";

export const schemaFieldShape = z.object({
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  description: z.string(),
  required: z.boolean(),
});

/** A type's schema: version 0 and no fields until the first edit or confirmation. */
export const categorySchemaShape = z.object({ fields: z.array(schemaFieldShape), version: z.number().int().min(0) });
export type CategorySchema = z.infer<typeof categorySchemaShape>;

/** Proposal status: 0 pending, 1 confirmed, 2 rejected. */
export const proposalShape = z.object({
  proposalId: z.string(),
  name: z.string(),
  description: z.string(),
  fields: z.array(schemaFieldShape),
  evidence: z.array(z.string()),
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  updatedAt: z.string(),
});
export type Proposal = z.infer<typeof proposalShape>;

/**
 * A member's filled cell: the cell fields, `schemaVersion`, the type's field
 * names as keys (only the fields with evidence), and `_sources` — for each
 * filled field, the cells its value was read from. Field names start with a
 * letter, so `_sources` never collides with one.
 */
export const filledCellShape = z
  .object({
    cellId: z.string(),
    entityIds: z.array(z.string()),
    fileIds: z.array(z.string()),
    projectId: z.string(),
    text: z.string(),
    updatedAt: z.string(),
    schemaVersion: z.number().int(),
    _sources: z.record(z.string(), z.array(z.string())),
  })
  .catchall(z.unknown());
export type FilledCell = z.infer<typeof filledCellShape>;
