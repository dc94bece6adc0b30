import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { DOCUMENT_INGEST, documentIngestInput } from "../src/documents/document-ingest-task.js";
import { enqueueAs, queuedTaskSchema } from "../src/tasks/detached.js";

/**
 * `document_ingest`: queues a detached task that fetches a URL (or reads a
 * file of the project or of the served folder) and takes it in through the
 * normal ingest pipeline. The answer is the task to poll; its result is
 * `{fileId}` once the document is read.
 */
export const documentIngestAction = defineAction({
  name: DOCUMENT_INGEST,
  family: "document",
  version: "1.0.0",
  title: "Ingest a document",
  description:
    "Reads one document into the project in the background: `source` is an http(s) URL (fetched; private, loopback and " +
    "link-local addresses are refused; at most 24 MiB and 5 redirects), a fileId of this project (read again), or a path " +
    "under the served folder. Answers {taskId, status: \"queued\"}; the task's result is {fileId} once the document is " +
    "read, and its cells can be queried (memory_query). A URL is stored at web/<host>/<path>. Over MCP, a call with a " +
    "progress token stays open until the task ends, reporting its progress; otherwise poll task_status. " +
    'Good call: {"source": "https://docs.example.com/guide/setup.md"}.',
  input: z.object({
    source: documentIngestInput.shape.source.describe("an http(s) URL, a fileId of this project, or a path under the served folder"),
  }),
  output: queuedTaskSchema,
  access: "editor",
  readOnly: false,
  detached: true,
  run: enqueueAs(DOCUMENT_INGEST),
});
