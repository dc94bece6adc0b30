import { z } from "zod";
import { defineEndpoint } from "../core/endpoint.js";
import type { AnyEndpoint } from "../core/endpoint.js";
import { cursorParam, idListParam, limitParam } from "../core/paging.js";
import { FACTION_TYPES } from "../vocabulary.js";
import { readCell, readCells } from "./read-cells.js";
import { putEntityRoles, readEntities, ROLE_NAME } from "./read-entities.js";
import { readFactions } from "./read-factions.js";
import { FILE_STATUSES, readFile, readFiles } from "./read-files.js";
import { entityDetailSchema, readEntity } from "./read-entity.js";
import { fileTextSchema, readFileText } from "./read-file-text.js";
import { filledCellShape } from "../categories/resources.js";
import { cellContextSchema, cellSchema, entityRolesSchema, entitySchema, factionSchema, fileSchema } from "./resources.js";

const projectParams = z.object({ projectId: z.string() });
/** An optional single-valued query parameter; empty means absent. */
const text = z
  .string()
  .max(2048)
  .optional()
  .transform((s) => s || undefined);
/** A query parameter that must be one of `words`, with the refusal naming them. */
const oneOf = <const T extends readonly [string, ...string[]]>(name: string, words: T) =>
  text.refine((s) => s === undefined || (words as readonly string[]).includes(s), {
    message: `${name} must be one of ${words.join(", ")}`,
    params: { bare: true },
  }) as unknown as z.ZodType<T[number] | undefined, string | undefined>;
const paged = { cursor: cursorParam, limit: limitParam };
const roleRule = { message: "role must be 1-64 letters, digits, spaces, '_' or '-'", params: { bare: true } };
const rolesRule = { message: "roles must be up to 32 names of 1-64 letters, digits, spaces, '_' or '-'", params: { bare: true } };

/** Reads of the derived graph (cells, entities, factions) and of files, and entity roles. */
export const graphEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "cells.list",
    method: "GET",
    path: "/v1/projects/:projectId/cells",
    summary: "Cells of the project and its ancestors, filtered and paged",
    project: "path",
    access: "viewer",
    reply: "page",
    input: z.object({
      params: projectParams,
      query: z.object({
        fileId: idListParam("fileId"),
        entityId: text,
        factionId: text,
        schemaId: text,
        parentCellId: text,
        ...paged,
      }),
    }),
    output: z.array(z.union([cellSchema, filledCellShape])),
    run: ({ query }, ctx) => readCells(ctx.db, ctx.scope, query, ctx.tools),
  }),
  defineEndpoint({
    name: "cells.get",
    method: "GET",
    path: "/v1/projects/:projectId/cells/:cellId",
    summary: "One cell with its faction, its file's path and its neighbours in the file",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams.extend({ cellId: z.string() }) }),
    output: cellContextSchema,
    run: ({ params }, ctx) => readCell(ctx.db, ctx.scope, params.cellId, ctx.tools),
  }),
  defineEndpoint({
    name: "entities.list",
    method: "GET",
    path: "/v1/projects/:projectId/entities",
    summary: "Entities backing at least one cell: by type, role or name words",
    project: "path",
    access: "viewer",
    reply: "page",
    input: z.object({
      params: projectParams,
      query: z.object({
        entityType: text,
        role: text.refine((r) => r === undefined || ROLE_NAME.test(r), roleRule),
        q: z.string().max(512).optional(),
        ...paged,
      }),
    }),
    output: z.array(entitySchema),
    run: ({ query }, ctx) => readEntities(ctx.db, ctx.scope, query, ctx.tools),
  }),
  defineEndpoint({
    name: "entities.get",
    method: "GET",
    path: "/v1/projects/:projectId/entities/:entityId",
    summary: "One entity with its live cell count and roles",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams.extend({ entityId: z.string() }) }),
    output: entityDetailSchema,
    run: ({ params }, ctx) => readEntity(ctx.db, ctx.scope, params.entityId),
  }),
  defineEndpoint({
    name: "factions.list",
    method: "GET",
    path: "/v1/projects/:projectId/factions",
    summary: "File spans: a cited set, a file's, a type's or an entity's, or all of them paged",
    project: "path",
    access: "viewer",
    reply: "page",
    input: z.object({
      params: projectParams,
      query: z.object({
        factionIds: idListParam("factionIds", 1000),
        fileId: text,
        categoryEntityId: text,
        entityId: text,
        factionType: oneOf("factionType", FACTION_TYPES),
        ...paged,
      }),
    }),
    output: z.array(factionSchema),
    run: ({ query }, ctx) => readFactions(ctx.db, ctx.scope, query, ctx.tools),
  }),
  defineEndpoint({
    name: "files.list",
    method: "GET",
    path: "/v1/projects/:projectId/files",
    summary: "Live files under a path prefix and of a status, paged",
    project: "path",
    access: "viewer",
    reply: "page",
    input: z.object({
      params: projectParams,
      query: z.object({ path: text, status: oneOf("status", FILE_STATUSES), ...paged }),
    }),
    output: z.array(fileSchema),
    run: ({ query }, ctx) => readFiles(ctx.db, ctx.scope, query, ctx.tools),
  }),
  defineEndpoint({
    name: "files.get",
    method: "GET",
    path: "/v1/projects/:projectId/files/:fileId",
    summary: "One file",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams.extend({ fileId: z.string() }) }),
    output: fileSchema,
    run: ({ params }, ctx) => readFile(ctx.db, ctx.scope, params.fileId),
  }),
  defineEndpoint({
    name: "files.text",
    method: "GET",
    path: "/v1/projects/:projectId/files/:fileId/text",
    summary: "One file's text, decoded as its readers decode it (null when the file is not text)",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams.extend({ fileId: z.string() }) }),
    output: fileTextSchema,
    run: ({ params }, ctx) => readFileText(ctx.db, ctx.scope, params.fileId),
  }),
  defineEndpoint({
    name: "entities.roles.put",
    method: "PUT",
    path: "/v1/projects/:projectId/entities/:entityId/roles",
    summary: "Replace an entity's roles",
    project: "path",
    access: "editor",
    input: z.object({
      params: projectParams.extend({ entityId: z.string() }),
      body: z.object({
        roles: z.unknown().optional().refine((r) => Array.isArray(r) && r.length <= 32 && r.every((x) => typeof x === "string" && ROLE_NAME.test(x)), rolesRule),
      }),
    }),
    output: entityRolesSchema,
    run: ({ params, body }, ctx) => putEntityRoles(ctx.db, ctx.scope, { entityId: params.entityId, roles: body.roles as string[] }),
  }),
];
