import { z } from "zod";
import { defineEndpoint } from "../core/endpoint.js";
import type { AnyEndpoint } from "../core/endpoint.js";
import { cursorParam, limitParam } from "../core/paging.js";
import { readArtifact, readArtifacts } from "./read-artifacts.js";
import { artifactRowSchema, artifactSchema } from "./resources.js";

const projectParams = z.object({ projectId: z.string() });

/** Reads of the artifacts `artifact_update` built: a paged list and one artifact with its citations. */
export const artifactEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "artifacts.list",
    method: "GET",
    path: "/v1/projects/:projectId/artifacts",
    summary: "The project's artifacts, paged by id",
    project: "path",
    access: "viewer",
    reply: "page",
    input: z.object({ params: projectParams, query: z.object({ cursor: cursorParam, limit: limitParam }) }),
    output: z.array(artifactRowSchema),
    run: ({ query }, ctx) => readArtifacts(ctx.db, ctx.scope, query, ctx.tools),
  }),
  defineEndpoint({
    name: "artifacts.get",
    method: "GET",
    path: "/v1/projects/:projectId/artifacts/:artifactId",
    summary: "One artifact: its Markdown body and whether each cited cell is live",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams.extend({ artifactId: z.string() }) }),
    output: artifactSchema,
    run: ({ params }, ctx) => readArtifact(ctx.db, ctx.scope, params.artifactId),
  }),
];
