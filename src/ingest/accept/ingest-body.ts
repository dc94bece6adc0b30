import { z } from "zod";
import { parseJsonObject } from "../../core/raw-body.js";
import { validate } from "../../core/validate-input.js";
import { scanDecodedText } from "../secrets/scan-for-secrets.js";
import type { IncomingFile } from "./accept-files.js";

const bare = (message: string) => ({ message, params: { bare: true } });

/**
 * The ingest body. Only its outer shape is checked here: each file entry is
 * judged on its own by the per-file checks (a bad entry is a refusal, never
 * a 400), so entries are taken as they come and decoded from base64.
 */
export const ingestBody = z.object({
  files: z
    .unknown()
    .optional()
    .superRefine((files, ctx) => {
      if (files === undefined || files === null || (Array.isArray(files) && files.length === 0)) {
        ctx.addIssue({ code: "custom", message: "this call carries no files", params: { appError: "no_files" } });
      } else if (!Array.isArray(files)) {
        ctx.addIssue({ code: "custom", message: "invalid request body", params: { appError: "invalid_request_body" } });
      }
    })
    .transform((files) => (files as unknown[]).map(toIncoming)),
  intent: z
    .unknown()
    .optional()
    .refine((s) => s === undefined || s === null || (typeof s === "string" && s.length <= 2000), bare("intent must be a string of at most 2000 characters"))
    // The intent is kept with the lease and shown by ingest_status: a credential in it is refused, not stored.
    .refine((s) => typeof s !== "string" || scanDecodedText(s) === null, bare("intent looks like a credential; leave it out"))
    .transform((s) => (typeof s === "string" ? s : undefined)),
});

/** The ingest body's input as the pipeline sees it, for the same issue paths (`body.…`) when checked apart from it. */
const asInput = z.object({ body: ingestBody });

/**
 * Decodes, parses and checks an ingest body from its bytes, with the
 * pipeline's checks and errors (400 `invalid request body`, the depth and
 * `__proto__` refusals, the body's own): what the serving thread does for a
 * small call, run by the accept thread for a large one.
 */
export function parseIngestBody(bytes: Uint8Array): z.output<typeof ingestBody> {
  return (validate(asInput, { body: parseJsonObject(bytes) }) as z.output<typeof asInput>).body;
}

/** An entry as it came: its base64 `content` is decoded with the per-file checks (off the serving thread when large). */
function toIncoming(f: unknown): IncomingFile {
  const o = (f !== null && typeof f === "object" && !Array.isArray(f) ? f : {}) as Record<string, unknown>;
  return { path: o.path, content: o.content, contentType: o.contentType, includeSecret: o.includeSecret };
}
