/**
 * Reads one file of the served folder the way folder sync would: the same
 * path rules, ignore rules and size caps (`scanFolder` over that one path),
 * never a file that leads outside the folder, through a link at any depth.
 */
import { constants } from "node:fs";
import { lstat, open, readlink, realpath, stat } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { AppError } from "../errors.js";
import { normalizePath } from "../ingest/accept/normalize-path.js";
import { MAX_FILE_BYTES, scanFolder } from "../ingest/folder/folder-scan.js";

/**
 * The bytes of `path` (relative to `root`) and its canonical path, or a
 * `document_refused` / `file_not_found` error saying why not: the path
 * breaks the ingest path rules, names nothing or a folder, is excluded by
 * the folder's ignore rules, leads outside the folder, or is too large.
 */
export async function readServedFile(root: string, rawPath: string): Promise<{ path: string; bytes: Uint8Array }> {
  const norm = normalizePath(rawPath);
  if (!norm.ok) throw new AppError("document_refused", { message: `${norm.reason}: ${rawPath}` });
  const path = norm.path;
  const realRoot = await realpath(root);
  const absolute = join(root, path);
  const st = await lstat(absolute).catch(() => undefined);
  if (!st) throw new AppError("file_not_found", { message: `no file ${path} in the served folder` });
  if (st.isDirectory()) throw new AppError("document_refused", { message: `${path} is a folder; name one file` });
  // Any link on the way (the file itself or a folder above it) must stay inside the folder.
  const real = await realpath(absolute).catch(() => undefined);
  if (!real || !isInside(realRoot, real)) throw new AppError("document_refused", { message: `${path} leads outside the served folder` });
  const scan = await scanFolder(root, { paths: [path] });
  if (!scan.files.some((f) => f.path === path)) {
    const skipped = scan.skipped.find((s) => s.path === path);
    const reason = skipped ? skipped.reason : "excluded by the folder's ignore rules, or not a regular file";
    throw new AppError(skipped?.reason === "larger than 24 MiB" ? "document_too_large" : "document_refused", {
      message: skipped?.reason === "larger than 24 MiB" ? "the document is larger than 24 MiB" : `${path} is not read: ${reason}`,
    });
  }
  return { path, bytes: await readCapped(real, realRoot, path) };
}

/**
 * Reads the checked file, failing past the cap. `O_NOFOLLOW` guards only
 * the last component: a folder above it swapped for a link since the check
 * would still be followed. So once the file is open, the path the kernel
 * resolved for that very descriptor must lie inside the folder; the bytes
 * are then read from the same descriptor, leaving no window to swap in.
 */
async function readCapped(real: string, realRoot: string, path: string): Promise<Uint8Array> {
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: NodeJS.ErrnoException) => {
    // The folder changed between the checks and the open: say so, as the checks would have.
    if (err.code === "ENOENT") throw new AppError("file_not_found", { message: `no file ${path} in the served folder` });
    if (err.code === "ELOOP") throw new AppError("document_refused", { message: `${path} became a link while it was read` });
    throw err;
  });
  try {
    const opened = await openedPath(handle, real);
    if (!isInside(realRoot, opened)) throw new AppError("document_refused", { message: `${path} leads outside the served folder` });
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 1024 * 1024 })) {
      length += (chunk as Buffer).byteLength;
      if (length > MAX_FILE_BYTES) throw new AppError("document_too_large");
      chunks.push(chunk as Buffer);
    }
    return new Uint8Array(Buffer.concat(chunks, length));
  } finally {
    await handle.close();
  }
}

/**
 * Where an open descriptor's file lies, as the kernel resolved it (Linux:
 * `/proc/self/fd`). Where that is unavailable, the file the path names now
 * must be the one open (same device and inode), else it moved under us.
 */
async function openedPath(handle: FileHandle, real: string): Promise<string> {
  const viaProc = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (viaProc !== undefined) return viaProc;
  const [held, named] = await Promise.all([handle.stat(), stat(real).catch(() => undefined)]);
  return named && held.dev === named.dev && held.ino === named.ino ? real : "";
}

function isInside(realRoot: string, target: string): boolean {
  const rel = relative(realRoot, target);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
