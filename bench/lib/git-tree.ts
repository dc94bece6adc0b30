/**
 * Read-only helpers over a bare git directory (a fetched mirror): the files
 * of a commit, the lines a commit changed, the history of some paths.
 */
import { execFileSync } from "node:child_process";

const MAX_BUFFER = 1 << 30;

function git(gitDir: string, args: readonly string[]): Buffer {
  return execFileSync("git", ["--git-dir", gitDir, ...args], { maxBuffer: MAX_BUFFER, stdio: ["ignore", "pipe", "ignore"] });
}

/** True when the directory is a git directory holding this commit. */
export function hasCommit(gitDir: string, commit: string): boolean {
  try {
    git(gitDir, ["cat-file", "-e", `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** Paths of a commit's tree that `keep` accepts, with their blob ids. */
export function treeBlobs(gitDir: string, commit: string, keep: (path: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(gitDir, ["ls-tree", "-r", "-z", commit]).toString("utf8").split("\0")) {
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, blob] = line.slice(0, tab).split(" ");
    const path = line.slice(tab + 1);
    if (type === "blob" && mode !== "120000" && blob && keep(path)) out.set(path, blob);
  }
  return out;
}

/** The bytes of many blobs, read through one `git cat-file --batch`; blobs the mirror lacks are left out. */
export function blobBytes(gitDir: string, blobs: readonly string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (blobs.length === 0) return out;
  const raw = execFileSync("git", ["--git-dir", gitDir, "cat-file", "--batch"], { input: `${blobs.join("\n")}\n`, maxBuffer: MAX_BUFFER });
  let at = 0;
  for (const blob of blobs) {
    const end = raw.indexOf(10, at);
    const [, type, size] = raw.subarray(at, end).toString("utf8").split(" ");
    if (type === "missing" || size === undefined) {
      at = end + 1;
      continue;
    }
    const n = Number(size);
    out.set(blob, raw.subarray(end + 1, end + 1 + n));
    at = end + 1 + n + 1;
  }
  return out;
}

/** One commit of a history. */
export interface CommitInfo {
  commit: string;
  parents: string[];
  subject: string;
  body: string;
}

/** Non-merge commits touching these paths, oldest first. */
export function commitsTouching(gitDir: string, paths: readonly string[]): CommitInfo[] {
  const raw = git(gitDir, ["log", "--no-merges", "--format=%H%x00%P%x00%s%x00%b%x1e", "HEAD", "--", ...paths]).toString("utf8");
  return raw
    .split("\x1e")
    .map((entry) => entry.replace(/^\n/, ""))
    .filter(Boolean)
    .map((entry) => {
      const [commit = "", parents = "", subject = "", body = ""] = entry.split("\0");
      return { commit, parents: parents.split(" ").filter(Boolean), subject, body: body.trim() };
    })
    .reverse();
}

/** A changed file of a commit: its status and the parent's line ranges the diff touches. */
export interface ChangedFile {
  status: string;
  path: string;
  /** Parent-side hunks: `[start, count]`; a count of 0 is an insertion after `start`. */
  hunks: Array<[number, number]>;
}

/**
 * Files a commit changed against its first parent, with the parent-side
 * hunks of those `keep` accepts (only their blobs are read); undefined when
 * the mirror lacks a blob the diff needs.
 */
export function changedFiles(gitDir: string, parent: string, commit: string, keep: (path: string) => boolean): ChangedFile[] | undefined {
  try {
    const status = git(gitDir, ["diff", "--name-status", "--no-renames", parent, commit]).toString("utf8");
    const files = new Map<string, ChangedFile>();
    for (const line of status.split("\n").filter(Boolean)) {
      const [s = "", path = ""] = line.split("\t");
      files.set(path, { status: s, path, hunks: [] });
    }
    const wanted = [...files.keys()].filter(keep);
    if (wanted.length === 0) return [...files.values()];
    let current: ChangedFile | undefined;
    for (const line of git(gitDir, ["diff", "-U0", "--no-renames", parent, commit, "--", ...wanted]).toString("utf8").split("\n")) {
      if (line.startsWith("--- ")) current = files.get(line.slice(4).replace(/^a\//, ""));
      const m = /^@@ -(\d+)(?:,(\d+))? \+/.exec(line);
      if (m && current) current.hunks.push([Number(m[1]), m[2] === undefined ? 1 : Number(m[2])]);
    }
    return [...files.values()];
  } catch {
    return undefined;
  }
}
