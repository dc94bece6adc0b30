import { z } from "zod";
import { ARTIFACT_KINDS } from "../store/artifacts/artifacts.js";

/**
 * The artifact resources as served: the endpoints' output schemas, the
 * types the reads return, and the shapes tests import.
 */

/** A row of the artifacts list. `stale`: a cited cell has been retired since the artifact was built. */
export const artifactRowSchema = z.object({
  artifactId: z.string(),
  title: z.string(),
  kind: z.enum(ARTIFACT_KINDS),
  corpusVersion: z.number().int(),
  stale: z.boolean(),
  updatedAt: z.string(),
});
export type ArtifactListRow = z.infer<typeof artifactRowSchema>;

/** One artifact: its Markdown body and each cited cell with whether it is still live. */
export const artifactSchema = z.object({
  artifactId: z.string(),
  title: z.string(),
  kind: z.enum(ARTIFACT_KINDS),
  purpose: z.string(),
  body: z.string(),
  citations: z.array(z.object({ cellId: z.string(), live: z.boolean() })),
  corpusVersion: z.number().int(),
  stale: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ArtifactResource = z.infer<typeof artifactSchema>;

/** What the `artifact_update` task answers. */
export const artifactResultSchema = z.object({ artifactId: z.string(), title: z.string(), kind: z.enum(ARTIFACT_KINDS) });
