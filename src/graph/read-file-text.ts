import { z } from "zod";
import type { Scope } from "../core/scope.js";
import { AppError } from "../errors.js";
import type { Queryable } from "../store/db.js";
import { getChunkBytes } from "../store/files/chunks.js";
import { findLiveFile } from "../store/files/files.js";
import { decodeText } from "../text/decode-text.js";

/**
 * A file's text as stored: what `GET …/files/{fileId}/text` answers and
 * an MCP file resource shows. `text` is null for a file that is not text
 * (PDF, media, binary, or bytes holding a NUL); its readings are its cells.
 */
export const fileTextSchema = z.object({
  fileId: z.string(),
  path: z.string(),
  contentType: z.string(),
  fileType: z.string(),
  fileSize: z.number().int().nonnegative(),
  text: z.string().nullable(),
});
export type FileText = z.infer<typeof fileTextSchema>;

/** File types whose bytes are never shown as text: their readers parse them from bytes. */
const NOT_TEXT: ReadonlySet<string> = new Set(["pdf", "media", "binary"]);

/**
 * `GET /v1/projects/{projectId}/files/{fileId}/text`: the live file's bytes
 * decoded by the one text rule (`decodeText`: UTF-8 or a UTF-16 mark,
 * line ends as LF), so line N of `text` is line N of the file and of its
 * factions' `lineStart`. A file whose bytes were dropped (a credential)
 * answers the empty text. 404 `file not found` for a retired, unknown or
 * unreachable id.
 */
export async function readFileText(q: Queryable, scope: Scope, fileId: string): Promise<FileText> {
  const file = await findLiveFile(q, scope.projectIds, fileId);
  if (!file) throw new AppError("file_not_found");
  const base = { fileId: file.fileId, path: file.path, contentType: file.contentType, fileType: file.fileType, fileSize: file.fileSize };
  if (NOT_TEXT.has(file.fileType)) return { ...base, text: null };
  const bytes = await getChunkBytes(q, file.projectId, file.chunkId);
  return { ...base, text: bytes ? (decodeText(bytes) ?? null) : "" };
}
