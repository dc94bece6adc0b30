import { z } from "zod";
import { INGEST_BODY_LIMIT, defineEndpoint } from "../core/endpoint.js";
import type { AnyEndpoint } from "../core/endpoint.js";
import { AppError } from "../errors.js";
import { fileSchema } from "../graph/resources.js";
import { RawJsonBody, parsedOrRaw } from "../core/raw-body.js";
import { IN_PLACE_BYTES, acceptIngestBody } from "./accept/accept-pool.js";
import { ingestBody } from "./accept/ingest-body.js";
import { CHUNK_ID, findMissingChunks, storeChunk } from "./accept/chunks.js";
import { ingestAnswerSchema, ingestBatch } from "./accept/ingest-batch.js";
import { leaseStatus, leaseStatusSchema } from "./accept/lease-status.js";
import { replaceContent } from "./accept/replace-content.js";

const MAX_CHUNK_IDS = 1000;
const projectParams = z.object({ projectId: z.string() });
const bare = (message: string) => ({ message, params: { bare: true } });
const ingestInput = z.object({ params: projectParams, body: parsedOrRaw(ingestBody) });

const chunkId = z.string().refine((s) => CHUNK_ID.test(s), bare("chunk id must be sha256:<64 hex>"));

/** Ingest, lease reads, chunk upload and content replacement. */
export const ingestEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "ingest.create",
    method: "POST",
    path: "/v1/projects/:projectId/ingest",
    summary: "Read files in: bytes ride the request (base64); per-file refusals with reasons",
    project: "path",
    access: "editor",
    bodyLimit: { bytes: INGEST_BODY_LIMIT, error: "request_too_large" },
    // A large body is decoded, parsed and checked in the accept thread with the per-file checks (accept-pool.ts).
    rawJsonAbove: IN_PLACE_BYTES,
    input: ingestInput,
    output: ingestAnswerSchema,
    async run({ body }, ctx) {
      const call = body instanceof RawJsonBody ? await acceptIngestBody(body.bytes) : body;
      await ctx.tools.storage.assertRoom();
      const answer = await ingestBatch(ctx.scope, { ...call, quotaBytes: ctx.tools.storage.quotaBytes }, ctx.tools);
      if (answer.accepted.length > 0) ctx.tools.reading.kick();
      return answer;
    },
  }),
  defineEndpoint({
    name: "ingest.lease",
    method: "GET",
    path: "/v1/projects/:projectId/ingest",
    summary: "The project's ingestion lease with live file counts",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams }),
    output: leaseStatusSchema,
    run: (_input, ctx) => leaseStatus(ctx.db, ctx.scope, ctx.tools),
  }),
  defineEndpoint({
    name: "ingest.lease.get",
    method: "GET",
    path: "/v1/projects/:projectId/ingest/:leaseId",
    summary: "The project's lease by id",
    project: "path",
    access: "viewer",
    input: z.object({ params: projectParams.extend({ leaseId: z.string() }) }),
    output: leaseStatusSchema,
    async run({ params }, ctx) {
      const status = await leaseStatus(ctx.db, ctx.scope, ctx.tools);
      if (status.leaseId !== params.leaseId) throw new AppError("lease_not_found");
      return status;
    },
  }),
  defineEndpoint({
    name: "chunks.missing",
    method: "POST",
    path: "/v1/projects/:projectId/chunks/missing",
    summary: "Which chunk ids the project does not hold yet",
    project: "path",
    access: "editor",
    input: z.object({
      params: projectParams,
      body: z.object({
        chunkIds: z
          .unknown()
          .optional()
          .refine(
            (ids) => Array.isArray(ids) && ids.length <= MAX_CHUNK_IDS && ids.every((id) => typeof id === "string" && CHUNK_ID.test(id)),
            bare(`chunkIds must be up to ${MAX_CHUNK_IDS} ids of the form sha256:<64 hex>`),
          )
          .transform((ids) => ids as string[]),
      }),
    }),
    output: z.object({ missing: z.array(z.string()) }),
    run: ({ body }, ctx) => findMissingChunks(ctx.db, ctx.scope, body.chunkIds),
  }),
  defineEndpoint({
    name: "chunks.put",
    method: "PUT",
    path: "/v1/projects/:projectId/chunks/:chunkId",
    summary: "Store raw bytes under their sha256 chunk id",
    project: "path",
    access: "editor",
    body: "bytes",
    bodyLimit: { bytes: INGEST_BODY_LIMIT, error: "request_too_large" },
    input: z.object({ params: projectParams.extend({ chunkId }), body: z.instanceof(Uint8Array) }),
    output: z.object({ chunkId: z.string(), size: z.number().int() }),
    async run({ params, body }, ctx) {
      await ctx.tools.storage.assertRoom();
      return storeChunk(ctx.scope, { chunkId: params.chunkId, bytes: body, quotaBytes: ctx.tools.storage.quotaBytes }, ctx.tools);
    },
  }),
  defineEndpoint({
    name: "files.content.put",
    method: "PUT",
    path: "/v1/projects/:projectId/files/:fileId/content",
    summary: "Move a file to stored chunk bytes and re-read only what changed",
    project: "path",
    access: "editor",
    input: z.object({
      params: projectParams.extend({ fileId: z.string() }),
      body: z.object({
        chunkId: z.unknown().optional().refine((s) => typeof s === "string" && CHUNK_ID.test(s), bare("chunkId must be sha256:<64 hex>")).transform((s) => s as string),
        fileSize: z
          .unknown()
          .optional()
          .refine((n) => n === undefined || (Number.isSafeInteger(n) && (n as number) >= 0), bare("fileSize must be a non-negative integer"))
          .transform((n) => n as number | undefined),
      }),
    }),
    output: fileSchema,
    async run({ params, body }, ctx) {
      await ctx.tools.storage.assertRoom();
      const file = await replaceContent(ctx.scope, { fileId: params.fileId, chunkId: body.chunkId, fileSize: body.fileSize }, ctx.tools);
      ctx.tools.reading.kick();
      return file;
    },
  }),
];
