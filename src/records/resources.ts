import { z } from "zod";
import { ARTIFACT_FIELD_TYPES } from "../vocabulary.js";

/** One field of an artifact schema on the wire. */
export const artifactFieldShape = z.object({
  name: z.string(),
  type: z.enum(ARTIFACT_FIELD_TYPES),
  required: z.boolean(),
});

/** The artifact schema resource: `{schemaId, name, fields, updatedAt}`. */
export const artifactSchemaShape = z.object({
  schemaId: z.string(),
  name: z.string(),
  fields: z.array(artifactFieldShape),
  updatedAt: z.string(),
});
export type ArtifactSchemaResource = z.infer<typeof artifactSchemaShape>;

/** The answer of a schema save: the name it is stored under and its id. */
export const savedSchemaShape = z.object({ name: z.string(), schemaId: z.string() });

/** The record resource: `{recordId, schemaId, data, createdAt}`. */
export const recordShape = z.object({
  recordId: z.string(),
  schemaId: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type RecordResource = z.infer<typeof recordShape>;
