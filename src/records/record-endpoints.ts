import { z } from "zod";
import { defineEndpoint } from "../core/endpoint.js";
import type { AnyEndpoint } from "../core/endpoint.js";
import { cursorParam, limitParam } from "../core/paging.js";
import { listSchemas, saveArtifactSchema } from "./artifact-schemas.js";
import { readRecords } from "./read-records.js";
import { artifactSchemaShape, recordShape, savedSchemaShape } from "./resources.js";

/** An optional single-valued query parameter; empty means absent. */
const text = z
  .string()
  .max(2048)
  .optional()
  .transform((s) => s || undefined);

/**
 * Artifact schemas (`/v1/artifact-schemas`, the project named by
 * `X-Project-Id`, `?projectId=` or the key's binding) and the records read.
 * Records come in through the `object_submit` action.
 */
export const recordEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "artifact-schemas.list",
    method: "GET",
    path: "/v1/artifact-schemas",
    summary: "The project's artifact schemas, by name",
    project: "header",
    access: "viewer",
    input: z.object({}),
    output: z.object({ schemas: z.array(artifactSchemaShape) }),
    run: (_input, ctx) => listSchemas(ctx.db, ctx.scope),
  }),
  defineEndpoint({
    name: "artifact-schemas.save",
    method: "POST",
    path: "/v1/artifact-schemas",
    summary: "Create the schema of that name, or replace its fields keeping its id",
    project: "header",
    access: "editor",
    status: 201,
    input: z.object({ body: z.object({ name: z.unknown().optional(), fields: z.unknown().optional() }) }),
    output: savedSchemaShape,
    run: ({ body }, ctx) => saveArtifactSchema(ctx.db, ctx.scope, body, ctx.tools),
  }),
  defineEndpoint({
    name: "records.list",
    method: "GET",
    path: "/v1/projects/:projectId/records",
    summary: "Submitted records of the project (spam never), optionally of one schema, paged",
    project: "path",
    access: "viewer",
    reply: "page",
    input: z.object({
      params: z.object({ projectId: z.string() }),
      query: z.object({ schemaId: text, cursor: cursorParam, limit: limitParam }),
    }),
    output: z.array(recordShape),
    run: ({ query }, ctx) => readRecords(ctx.db, ctx.scope, query, ctx.tools),
  }),
];
