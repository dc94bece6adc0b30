import { z } from "zod";
import { defineEndpoint } from "../core/endpoint.js";
import type { AnyEndpoint } from "../core/endpoint.js";
import { cursorParam, limitParam } from "../core/paging.js";
import { confirmProposal, listProposals, rejectProposal } from "./proposals.js";
import { categorySchemaShape, proposalShape } from "./resources.js";
import { approveSchemaProposal, editSchema, rejectSchemaProposal } from "./schema-edits.js";

const typeParams = z.object({ projectId: z.string(), entityId: z.string() });
const proposalParams = z.object({ projectId: z.string(), proposalId: z.string() });
/** Settling bodies are `{}`; anything else in them is ignored, an absent body too. */
const emptyBody = z.unknown();
const schemaAnswer = z.object({ categorySchema: categorySchemaShape });

/**
 * The session endpoints of typed knowledge (spec endpoints 6, 7 and 8): a
 * person signed in with a session settles proposed types and edits type
 * schemas. Reads need viewer access, changes editor access.
 */
export const categoryEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "category-proposals.list",
    method: "GET",
    path: "/v1/projects/:projectId/category-proposals",
    summary: "Types proposed by reading, newest first",
    project: "path",
    access: "viewer",
    auth: ["session"],
    reply: "page",
    input: z.object({ params: z.object({ projectId: z.string() }), query: z.object({ cursor: cursorParam, limit: limitParam }) }),
    output: z.array(proposalShape),
    run: ({ query }, ctx) => listProposals(ctx.db, ctx.scope, query, ctx.tools),
  }),
  defineEndpoint({
    name: "category-proposals.confirm",
    method: "POST",
    path: "/v1/projects/:projectId/category-proposals/:proposalId/confirm",
    summary: "Confirm a proposed type: its fields become the type's schema and its sections are filed under it",
    project: "path",
    access: "editor",
    auth: ["session"],
    input: z.object({ params: proposalParams, body: emptyBody }),
    output: z.object({ entityId: z.string() }),
    run: ({ params }, ctx) => confirmProposal(ctx.db, ctx.scope, params.proposalId, ctx.tools),
  }),
  defineEndpoint({
    name: "category-proposals.reject",
    method: "POST",
    path: "/v1/projects/:projectId/category-proposals/:proposalId/reject",
    summary: "Reject a proposed type: its shape is never proposed again",
    project: "path",
    access: "editor",
    auth: ["session"],
    input: z.object({ params: proposalParams, body: emptyBody }),
    output: z.object({}).strict(),
    run: ({ params }, ctx) => rejectProposal(ctx.db, ctx.scope, params.proposalId, ctx.tools),
  }),
  defineEndpoint({
    name: "entity-schema.put",
    method: "PUT",
    path: "/v1/projects/:projectId/entities/:entityId/schema",
    summary: "Replace a type's fields, from the version the edit started at",
    project: "path",
    access: "editor",
    auth: ["session"],
    input: z.object({
      params: typeParams,
      body: z.object({
        fields: z.unknown().refine((v) => v !== undefined, { message: "required" }),
        version: z.number().int().min(0),
      }),
    }),
    output: schemaAnswer,
    run: ({ params, body }, ctx) => editSchema(ctx.db, ctx.scope, { entityId: params.entityId, fields: body.fields, version: body.version }, ctx.tools),
  }),
  defineEndpoint({
    name: "entity-schema.approve",
    method: "POST",
    path: "/v1/projects/:projectId/entities/:entityId/schema/approve",
    summary: "Make a type's pending schema change live, one version up",
    project: "path",
    access: "editor",
    auth: ["session"],
    input: z.object({ params: typeParams, body: emptyBody }),
    output: schemaAnswer,
    run: ({ params }, ctx) => approveSchemaProposal(ctx.db, ctx.scope, params.entityId, ctx.tools),
  }),
  defineEndpoint({
    name: "entity-schema.reject",
    method: "POST",
    path: "/v1/projects/:projectId/entities/:entityId/schema/reject",
    summary: "Drop a type's pending schema change",
    project: "path",
    access: "editor",
    auth: ["session"],
    input: z.object({ params: typeParams, body: emptyBody }),
    output: z.object({}).strict(),
    run: ({ params }, ctx) => rejectSchemaProposal(ctx.db, ctx.scope, params.entityId, ctx.tools),
  }),
];
