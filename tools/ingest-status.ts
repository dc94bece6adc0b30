import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { readFiles } from "../src/graph/read-files.js";
import { leaseStatus, leaseStatusSchema } from "../src/ingest/accept/lease-status.js";

/** Failed files an answer names, at most (the rest: `GET …/files?status=failed`). */
const FAILED_SHOWN = 20;

/**
 * `ingest_status`: the project's ingestion lease as `GET
 * /v1/projects/{projectId}/ingest` answers it (the same `leaseStatus`),
 * plus the first failed files with their errors, so an agent that just
 * ingested or edited files learns whether reading is done and what failed
 * without another call.
 */
export const ingestStatusAction = defineAction({
  name: "ingest_status",
  family: "ingest",
  version: "1.0.0",
  title: "Ingest status",
  description:
    "Says whether the project's files are read: state (scanning until the served folder's first scan has listed it, then " +
    "reading while any file is queued or being read, else idle), the corpus " +
    "version (one more per ingest batch), file counts {queued, reading, ready, failed}, the last ingest intent, and the first " +
    `${FAILED_SHOWN} failed files with their errors (path and reason). Call it after document_ingest, an ingest or a folder change ` +
    "before trusting memory_query or code_context_pack to see the new content; poll every few seconds while state is reading. " +
    "Good call: {}.",
  input: z.object({}),
  output: leaseStatusSchema.extend({
    failedFiles: z.array(z.object({ fileId: z.string(), path: z.string(), error: z.string() })),
  }),
  access: "viewer",
  readOnly: true,
  run: async (_input, ctx) => {
    const status = await leaseStatus(ctx.db, ctx.scope, ctx.tools);
    const failed = status.files.failed > 0 ? (await readFiles(ctx.db, ctx.scope, { status: "failed", limit: FAILED_SHOWN }, ctx.tools)).rows : [];
    const own = failed.filter((f) => f.projectId === status.projectId);
    return { ...status, failedFiles: own.map((f) => ({ fileId: f.fileId, path: f.path, error: f.error ?? "" })) };
  },
  links: (answer) => answer.failedFiles.map((f) => ({ kind: "file" as const, id: f.fileId, name: f.path })),
});
