import type { Dirent } from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { FolderRules } from "./folder-rules.js";
import { classifyFile, defaultContentType } from "../accept/media-types.js";

/** 24 MiB, the largest ingest call: a bigger file is not synced. */
export const MAX_FILE_BYTES = 24 * 1024 * 1024;
/** Binaries and media above 1 MiB are left out: no reader gets anything from them yet. */
export const MAX_BINARY_BYTES = 1024 * 1024;
/** What `classifyFile` looks at, plus room to finish a UTF-8 sequence cut at its edge. */
const HEAD_BYTES = 8192 + 4;

/** A file on disk that the sync may read. */
export interface ScannedFile {
  /** Relative to the root, POSIX separators. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

/** A file left out for a reason worth telling (ignored files are not listed). */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** What a scan found. */
export interface FolderScan {
  files: ScannedFile[];
  skipped: SkippedFile[];
}

/** How to scan: which rules, which paths, and who to tell along the way. */
export interface ScanOptions {
  /** Exclusion rules; fresh ones (reading every ignore file) when absent. */
  rules?: FolderRules;
  /** Only these paths (files or folders, relative); the whole folder when absent. */
  paths?: readonly string[];
  /** Called with each folder ("" for the root) before its entries are listed. */
  onDir?: (dir: string) => void;
  /** Called with the number of files found so far. */
  onFile?: (found: number) => void;
}

/**
 * Walks a folder and lists the files a sync would read: ignore rules and
 * default excludes applied, symbolic links followed only to a file inside
 * the folder (linked folders are not walked: they would loop or duplicate),
 * sockets and devices passed over, files over the size caps reported.
 */
export async function scanFolder(root: string, options: ScanOptions = {}): Promise<FolderScan> {
  const walk = new Walk(root, await realpath(root), options);
  if (options.paths) {
    for (const path of outermost(options.paths)) await walk.visitPath(path);
  } else {
    await walk.visitDir("", true);
  }
  walk.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: walk.files, skipped: walk.skipped };
}

class Walk {
  readonly files: ScannedFile[] = [];
  readonly skipped: SkippedFile[] = [];
  readonly #rules: FolderRules;

  constructor(
    readonly root: string,
    readonly realRoot: string,
    readonly options: ScanOptions,
  ) {
    this.#rules = options.rules ?? new FolderRules(root);
  }

  /** One path named by a change: a file, a folder to walk, or nothing any more. */
  async visitPath(path: string): Promise<void> {
    if (await this.#underExcludedDir(path)) return;
    const st = await lstat(join(this.root, path)).catch(() => undefined);
    if (!st) return;
    if (st.isDirectory()) {
      if (!(await this.#rules.excludes(path, true))) await this.visitDir(path, false);
    } else {
      await this.#visitFile(path, kindOf(st));
    }
  }

  async visitDir(dir: string, isRoot: boolean): Promise<void> {
    this.options.onDir?.(dir);
    let entries: Dirent[];
    try {
      entries = await readdir(join(this.root, dir), { withFileTypes: true });
    } catch (err) {
      if (isRoot) throw err;
      if (codeOf(err) !== "ENOENT" && codeOf(err) !== "ENOTDIR") this.skipped.push({ path: dir, reason: `folder cannot be read (${codeOf(err)})` });
      return;
    }
    this.#rules.noteListing(dir, entries.map((e) => e.name));
    const pathOf = (entry: Dirent) => (dir === "" ? entry.name : `${dir}/${entry.name}`);
    // A folder's files are looked at together (the stats overlap); its subfolders one by one.
    await Promise.all(entries.filter((e) => !e.isDirectory()).map((e) => this.#visitFile(pathOf(e), kindOf(e))));
    for (const entry of entries.filter((e) => e.isDirectory())) {
      const path = pathOf(entry);
      if (!(await this.#rules.excludes(path, true))) await this.visitDir(path, false);
    }
  }

  async #visitFile(path: string, kind: "file" | "link" | "other"): Promise<void> {
    if (kind === "other" || (await this.#rules.excludes(path, false))) return;
    // The ingest path check reads `\` as a separator: such a file would come back under another name.
    if (path.includes("\\")) {
      this.skipped.push({ path, reason: "name contains a backslash" });
      return;
    }
    const absPath = join(this.root, path);
    const st = await stat(absPath).catch(() => undefined);
    if (!st?.isFile()) return;
    if (kind === "link" && !isInside(this.realRoot, await realpath(absPath).catch(() => ""))) {
      this.skipped.push({ path, reason: "symbolic link leads outside the folder" });
      return;
    }
    const reason = await sizeProblem(path, absPath, st.size).catch(() => null);
    if (reason === null) return;
    if (reason) this.skipped.push({ path, reason });
    else this.files.push({ path, absPath, size: st.size, mtimeMs: st.mtimeMs });
    this.options.onFile?.(this.files.length);
  }

  async #underExcludedDir(path: string): Promise<boolean> {
    const segments = path.split("/");
    for (let i = 1; i < segments.length; i++) {
      if (await this.#rules.excludes(segments.slice(0, i).join("/"), true)) return true;
    }
    return false;
  }
}

function kindOf(entry: { isSymbolicLink(): boolean; isFile(): boolean }): "file" | "link" | "other" {
  return entry.isSymbolicLink() ? "link" : entry.isFile() ? "file" : "other";
}

/** Why a file of this size is not synced, or undefined when it is. */
async function sizeProblem(path: string, absPath: string, size: number): Promise<string | undefined> {
  if (size > MAX_FILE_BYTES) return "larger than 24 MiB";
  if (size <= MAX_BINARY_BYTES) return undefined;
  const type = classifyFile(path, defaultContentType(path), await readHead(absPath));
  return type === "binary" || type === "media" ? "binary file larger than 1 MiB" : undefined;
}

async function readHead(absPath: string): Promise<Uint8Array> {
  const handle = await open(absPath, "r");
  try {
    const buffer = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the path or one of its folders is in the set. */
export function isWithin(path: string, named: ReadonlySet<string>): boolean {
  if (named.has(path)) return true;
  for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1)) {
    if (named.has(path.slice(0, cut))) return true;
  }
  return false;
}

/** The paths with none of their folders also listed. */
function outermost(paths: readonly string[]): string[] {
  const set = new Set(paths);
  return [...set].filter((path) => {
    const cut = path.lastIndexOf("/");
    return cut < 0 || !isWithin(path.slice(0, cut), set);
  });
}

function isInside(realRoot: string, target: string): boolean {
  if (target === "") return false;
  const rel = relative(realRoot, target);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function codeOf(err: unknown): string {
  return (err as { code?: string }).code ?? "error";
}
