import type { Context, Hono } from "hono";
import { resolveProject, requireEditor } from "../../../core/project-access.js";
import type { ProjectAccess } from "../../../core/project-access.js";
import type { ServiceDeps } from "../../../core/deps.js";
import { AppError } from "../../../errors.js";
import { decodeBase64 } from "../../../ingest/accept/accept-files.js";
import type { IncomingFile } from "../../../ingest/accept/accept-files.js";
import { ingestBatch } from "../../../ingest/accept/ingest-batch.js";
import type { IngestWorker } from "../../../ingest/read/ingest-worker.js";
import { leaseStatus } from "../../../ingest/accept/lease-status.js";
import { replaceContent } from "../../../ingest/accept/replace-content.js";
import { chunkIdOf, missingChunks, putChunk } from "../../../store/files/chunks.js";
import type { HttpEnv } from "../http-env.js";
import { readBodyBytes, readJsonObject } from "../read-body.js";

/** 24 MiB: the largest ingest call or chunk, counted before decoding. */
export const INGEST_BODY_LIMIT = 25_165_824;
const CHUNK_ID = /^sha256:[0-9a-f]{64}$/;
const MAX_CHUNK_IDS = 1000;

async function access(c: Context<HttpEnv>, deps: ServiceDeps, editor: boolean): Promise<ProjectAccess> {
  const a = await resolveProject(deps.db, c.get("principal"), c.req.param("projectId"));
  if (editor) requireEditor(a);
  return a;
}

/** Ingest, lease reads, chunk upload and content replacement. */
export function ingestRoutes(app: Hono<HttpEnv>, deps: ServiceDeps, worker: IngestWorker): void {
  app.post("/v1/projects/:projectId/ingest", async (c) => {
    const { projectId } = await access(c, deps, true);
    const body = await readJsonObject(c.req.raw, INGEST_BODY_LIMIT, "request_too_large");
    const answer = await ingestBatch(deps, projectId, toIncoming(body.files), { intent: intentOf(body.intent) });
    if (answer.accepted.length > 0) worker.kick();
    return c.json(answer);
  });

  app.get("/v1/projects/:projectId/ingest", async (c) => {
    const { projectId } = await access(c, deps, false);
    return c.json(await leaseStatus(deps, projectId));
  });

  app.get("/v1/projects/:projectId/ingest/:leaseId", async (c) => {
    const { projectId } = await access(c, deps, false);
    const status = await leaseStatus(deps, projectId);
    if (status.leaseId !== c.req.param("leaseId")) throw new AppError("lease_not_found");
    return c.json(status);
  });

  app.post("/v1/projects/:projectId/chunks/missing", async (c) => {
    const { projectId } = await access(c, deps, true);
    const body = await readJsonObject(c.req.raw);
    const ids = body.chunkIds;
    if (!Array.isArray(ids) || ids.length > MAX_CHUNK_IDS || !ids.every((id) => typeof id === "string" && CHUNK_ID.test(id))) {
      throw new AppError("invalid_input", { message: `chunkIds must be up to ${MAX_CHUNK_IDS} ids of the form sha256:<64 hex>` });
    }
    return c.json({ missing: await missingChunks(deps.db, projectId, ids as string[]) });
  });

  app.put("/v1/projects/:projectId/chunks/:chunkId", async (c) => {
    const { projectId } = await access(c, deps, true);
    const chunkId = c.req.param("chunkId");
    if (!CHUNK_ID.test(chunkId)) throw new AppError("invalid_input", { message: "chunk id must be sha256:<64 hex>" });
    const bytes = await readBodyBytes(c.req.raw, INGEST_BODY_LIMIT, "request_too_large");
    if (chunkIdOf(bytes) !== chunkId) throw new AppError("invalid_input", { message: "chunk id does not match the bytes" });
    await putChunk(deps.db, projectId, chunkId, bytes, new Date(deps.clock()).toISOString());
    return c.json({ chunkId, size: bytes.byteLength });
  });

  app.put("/v1/projects/:projectId/files/:fileId/content", async (c) => {
    const { projectId } = await access(c, deps, true);
    const body = await readJsonObject(c.req.raw);
    if (typeof body.chunkId !== "string" || !CHUNK_ID.test(body.chunkId)) {
      throw new AppError("invalid_input", { message: "chunkId must be sha256:<64 hex>" });
    }
    if (body.fileSize !== undefined && !(Number.isSafeInteger(body.fileSize) && (body.fileSize as number) >= 0)) {
      throw new AppError("invalid_input", { message: "fileSize must be a non-negative integer" });
    }
    const file = await replaceContent(deps, projectId, c.req.param("fileId"), {
      chunkId: body.chunkId,
      fileSize: body.fileSize as number | undefined,
    });
    worker.kick();
    return c.json(file);
  });
}

function toIncoming(files: unknown): IncomingFile[] {
  if (files === undefined || files === null || (Array.isArray(files) && files.length === 0)) throw new AppError("no_files");
  if (!Array.isArray(files)) throw new AppError("invalid_request_body");
  return files.map((f: unknown) => {
    const o = (f !== null && typeof f === "object" && !Array.isArray(f) ? f : {}) as Record<string, unknown>;
    const decoded = decodeBase64(o.content);
    return {
      path: o.path,
      bytes: "bytes" in decoded ? decoded.bytes : undefined,
      bytesProblem: "problem" in decoded ? decoded.problem : undefined,
      contentType: o.contentType,
      includeSecret: o.includeSecret,
    };
  });
}

function intentOf(intent: unknown): string | undefined {
  if (intent === undefined || intent === null) return undefined;
  if (typeof intent !== "string" || intent.length > 2000) throw new AppError("invalid_input", { message: "intent must be a string of at most 2000 characters" });
  return intent;
}
