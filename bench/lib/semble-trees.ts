/**
 * The semble benchmark's repository trees and their ingested stores: a
 * tree comes from a folder of extracted trees or is extracted from a
 * fetched mirror; a store is ingested once through the real pipeline and
 * kept under bench/.cache/semble/ for as long as the tree and the code
 * that reads files in (src/ but the retrieval folder) stay the same.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { ensureLocalProject } from "../../src/access/local-project.js";
import { createApp } from "../../src/app.js";
import type { App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { ingestBatch } from "../../src/ingest/accept/ingest-batch.js";
import { hasCommit } from "./git-tree.js";
import { walkFiles } from "./walk-files.js";

export interface SembleRepo {
  name: string;
  language: string;
  url: string;
  revision: string;
  benchmark_root?: string;
}

export interface SembleTree {
  /** The folder holding the repository's paths (only `benchmark_root` is served). */
  dir: string;
  /** What differs from the pinned revision, if anything. */
  note: string;
}

export interface SembleStore {
  app: App;
  projectIds: string[];
  /** Every served file's text by path (for the same-run baselines). */
  texts: Map<string, string>;
  /** Seconds the ingest took (when it was cached: when it was made). */
  ingestSeconds: number;
  cached: boolean;
}

const CACHE = fileURLToPath(new URL("../.cache/semble/", import.meta.url));
const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const BATCH_FILES = 200;
const BATCH_BYTES = 8 * 1_048_576;

const flag = (args: readonly string[], name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

/** `owner+name/repo` of a repository's url under the mirrors folder. */
function mirrorGitDir(mirrors: string, url: string): string {
  const [owner, name] = url.replace(/\.git$/, "").split("/").slice(-2);
  return join(mirrors, `${owner}+${name}`, "repo");
}

/** The repository's tree: an extracted one if given, else extracted from its mirror (HEAD when the pinned revision is missing). */
export function sembleTree(repo: SembleRepo, args: readonly string[]): SembleTree {
  const trees = flag(args, "--trees") ?? process.env["PKS_SEMBLE_TREES"];
  const mirrors = flag(args, "--mirrors") ?? process.env["PKS_MIRRORS"];
  const gitDir = mirrors ? mirrorGitDir(mirrors, repo.url) : undefined;
  const pinned = gitDir && existsSync(gitDir) ? hasCommit(gitDir, repo.revision) : undefined;
  const note = pinned === false ? "pinned revision missing from the mirror: HEAD" : "";
  if (trees && existsSync(join(trees, repo.name))) return { dir: join(trees, repo.name), note };
  if (!gitDir || !existsSync(gitDir)) throw new Error(`${repo.name}: no tree under --trees/PKS_SEMBLE_TREES and no mirror under --mirrors/PKS_MIRRORS`);
  const dir = join(CACHE, "trees", repo.name);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync("git", ["--git-dir", gitDir, "archive", pinned ? repo.revision : "HEAD", ...(repo.benchmark_root ? [repo.benchmark_root] : [])], { maxBuffer: 1 << 30 });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
  }
  return { dir, note };
}

/** Store modules that only read the search indexes (the queries retrieval runs): no ingest runs them. */
const SEARCH_READS = ["store/search/lexical-search.ts", "store/search/declaration-search.ts"];

/** A digest of the code that reads files in: src/ but src/retrieve/ (save the identifier splitting indexing shares) and the search reads. */
function ingestCodeDigest(): string {
  const h = createHash("sha256");
  const keep = (p: string) => (!p.includes("/retrieve/") || p.endsWith("identifier-words.ts")) && !SEARCH_READS.some((r) => p.endsWith(r));
  for (const p of walkFiles(SRC, keep)) h.update(p).update(readFileSync(p));
  return h.digest("hex").slice(0, 16);
}

/** The served files (under `benchmark_root`) by path relative to the tree. */
function servedTexts(repo: SembleRepo, tree: SembleTree): Map<string, Buffer> {
  const root = join(tree.dir, repo.benchmark_root ?? "");
  const out = new Map<string, Buffer>();
  for (const p of walkFiles(root, () => true)) out.set(relative(tree.dir, p), readFileSync(p));
  return out;
}

function storeKey(repo: SembleRepo, files: ReadonlyMap<string, Buffer>): string {
  const h = createHash("sha256").update(ingestCodeDigest());
  for (const [p, b] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) h.update(p).update(b);
  return `${repo.name}-${h.digest("hex").slice(0, 12)}`;
}

async function ingestAll(app: App, projectId: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  let batch: Array<{ path: string; bytes: Uint8Array }> = [];
  let size = 0;
  const flush = async () => {
    if (batch.length > 0) await ingestBatch({ projectId }, { files: batch }, app.tools);
    app.worker.kick();
    batch = [];
    size = 0;
  };
  for (const [path, b] of files) {
    if (batch.length >= BATCH_FILES || (size + b.length > BATCH_BYTES && batch.length > 0)) await flush();
    batch.push({ path, bytes: new Uint8Array(b) });
    size += b.length;
  }
  await flush();
  await app.worker.whenIdle();
}

/** The repository's ingested store, from the cache when the tree and the ingest code are unchanged. */
export async function openSembleStore(repo: SembleRepo, tree: SembleTree, fresh: boolean): Promise<SembleStore> {
  const files = servedTexts(repo, tree);
  const root = join(CACHE, storeKey(repo, files));
  const cached = !fresh && existsSync(join(root, "done"));
  if (!cached) {
    for (const old of existsSync(CACHE) ? readdirSync(CACHE).filter((d) => d.startsWith(`${repo.name}-`)) : []) rmSync(join(CACHE, old), { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
  }
  const app = await createApp(loadConfig({ root, db: `file:${join(root, "pks.db")}` }, { PKS_LOG: "silent" }));
  const local = await ensureLocalProject(app.deps.db, root);
  let ingestSeconds = cached ? Number(readFileSync(join(root, "done"), "utf8")) : 0;
  if (!cached) {
    const start = performance.now();
    await ingestAll(app, local.projectId, files);
    ingestSeconds = (performance.now() - start) / 1000;
    writeFileSync(join(root, "done"), String(ingestSeconds));
  }
  const texts = new Map([...files].map(([p, b]) => [p, b.toString("utf8")]));
  return { app, projectIds: [local.projectId], texts, ingestSeconds, cached };
}

