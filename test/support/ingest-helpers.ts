import type { IngestAnswer } from "../../src/ingest/accept/ingest-batch.js";
import type { TestWorld } from "./test-app.js";
import { send } from "./test-app.js";

/** An ingest body entry for text content. */
export function fileEntry(path: string, text: string | Uint8Array, extra: Record<string, unknown> = {}) {
  return { path, content: Buffer.from(text).toString("base64"), ...extra };
}

export type IngestResponse = IngestAnswer;

/** POSTs an ingest call as the editor and returns the parsed answer. */
export async function ingest(w: TestWorld, files: unknown[], key = w.keys.editor, extra: Record<string, unknown> = {}) {
  const res = await send(w, `/v1/projects/${w.projectId}/ingest`, { method: "POST", key, json: { files, ...extra } });
  return { res, body: (await res.json()) as IngestResponse };
}

/** Live factions of a file, in order. */
export function liveFactions(w: TestWorld, fileId: string) {
  return w.app.deps.db.all<{ faction_id: string; faction_type: string; line_start: number | null; line_end: number | null; text: string; text_at_lines: number }>(
    "SELECT faction_id, faction_type, line_start, line_end, text, text_at_lines FROM factions WHERE file_id = ? AND retired_at IS NULL ORDER BY ordinal",
    [fileId],
  );
}

/** Live cells of a file, in order. */
export function liveCells(w: TestWorld, fileId: string) {
  return w.app.deps.db.all<{ cell_id: string; faction_id: string; parent_cell_id: string | null; text: string }>(
    "SELECT cell_id, faction_id, parent_cell_id, text FROM cells WHERE file_id = ? AND retired_at IS NULL ORDER BY ordinal",
    [fileId],
  );
}
