import type { FileRow } from "../store/files/files.js";
import type { FileResource } from "./resources.js";

export type { FileResource } from "./resources.js";

/** A stored file row as the File resource. */
export function toFileResource(f: FileRow): FileResource {
  const { filepath, name, ext } = splitPath(f.path);
  return {
    fileId: f.fileId,
    projectId: f.projectId,
    name,
    filepath,
    path: f.path,
    ext,
    fileType: f.fileType,
    contentType: f.contentType,
    fileSize: f.fileSize,
    chunkIds: [f.chunkId],
    chunking: "whole",
    status: f.status,
    ...(f.error ? { error: f.error } : {}),
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
  };
}

/** Folder, file name and extension of a normalized path (`a/b.ts` → `a`, `b.ts`, `ts`). */
export function splitPath(path: string): { filepath: string; name: string; ext: string } {
  const cut = path.lastIndexOf("/");
  const name = path.slice(cut + 1);
  const dot = name.lastIndexOf(".");
  return { filepath: cut < 0 ? "" : path.slice(0, cut), name, ext: dot > 0 ? name.slice(dot + 1).toLowerCase() : "" };
}
