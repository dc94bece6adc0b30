/**
 * The pks process of the ingest benchmark: the same wiring and calls as
 * `pks serve --root DIR` — `createApp` on a fresh database file, the
 * folder's local project, `watchFolder` (whose first sync is the cold
 * ingest) — driven in-process so each phase can be timed from inside.
 * Started by `bench/ingest.ts` with `fork`; reads its plan (JSON) from
 * the file named by argv[2] (a plan carries a whole document, too long
 * for an argument), sends one `HostMessage` over IPC and exits. Progress
 * goes to stderr.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ensureLocalProject, localPrincipal } from "../../src/access/local-project.js";
import type { LocalProject } from "../../src/access/local-project.js";
import { createApp } from "../../src/app.js";
import type { App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { storeChunk } from "../../src/ingest/accept/chunks.js";
import { replaceContent } from "../../src/ingest/accept/replace-content.js";
import { syncFolder } from "../../src/ingest/folder/folder-sync.js";
import type { SyncSummary } from "../../src/ingest/folder/folder-sync.js";
import { watchFolder } from "../../src/ingest/folder/folder-watch.js";
import type { FolderWatch } from "../../src/ingest/folder/folder-watch.js";
import { createProject } from "../../src/store/access/projects.js";
import { chunkIdOf } from "../../src/store/files/chunks.js";
import { listLiveFiles } from "../../src/store/files/files.js";
import { searchCells } from "../../src/store/search/lexical-search.js";
import { docCommentLines, editDocLine, editProseLine, lineCount, proseLine } from "./edit-lines.js";
import type { DocsPlan, DocsResult, EditSeries, HostMessage, HostPlan, IngestRun, TreePlan, TreeResult } from "./ingest-plan.js";
import { peakRssBytes, resetPeakRss, rssBytes, sampleRss } from "./proc-memory.js";

/** Where the long Markdown document is saved in the tree for the edit series. */
export const LONG_DOC_PATH = "pks-bench-long-document.md";
const QUERYABLE_TIMEOUT_MS = 30_000;
/** Idle time after an ingest before the serving RSS is read: past the reader pool's 2 s recycling of idle threads. */
const SETTLE_MS = 3_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const note = (line: string) => process.stderr.write(`  [pks] ${line}\n`);

async function openApp(dbDir: string, root: string): Promise<{ app: App; local: LocalProject }> {
  const config = loadConfig({ root, db: `file:${join(dbDir, "pks.db")}` }, { PKS_LOG: "silent" });
  const app = await createApp(config);
  const local = await ensureLocalProject(app.deps.db, config.root);
  return { app, local };
}

/** Times one ingest: the clock, the process's CPU and its peak RSS (window reset at the start). */
async function timedIngest(index: number, via: IngestRun["via"], run: () => Promise<SyncSummary | undefined>, settle = true): Promise<IngestRun> {
  resetPeakRss();
  const sampler = sampleRss();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const summary = await run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const sampled = sampler.stop();
  if (!summary) throw new Error("the folder sync ended without a summary");
  const rssAfterBytes = rssBytes();
  const heapUsedAfterBytes = process.memoryUsage().heapUsed;
  // The probed ingest does not wait: its end ends the queries counted as "during".
  if (settle) await sleep(SETTLE_MS);
  return {
    index,
    via,
    ms,
    cpuMs: (used.user + used.system) / 1000,
    peakRssBytes: peakRssBytes(),
    sampledPeakRssBytes: sampled,
    rssAfterBytes,
    rssSettledBytes: rssBytes(),
    heapUsedAfterBytes,
    files: summary.files,
    added: summary.added,
    failed: summary.failed,
    refused: summary.refused.length,
    skipped: summary.skipped.length,
    factions: summary.factions,
    cells: summary.cells,
    entities: summary.entities,
  };
}

/** Waits until a live cell of the project holds `marker` in the full-text index `memory_query` reads. */
async function untilQueryable(app: App, projectId: string, marker: string): Promise<void> {
  const deadline = performance.now() + QUERYABLE_TIMEOUT_MS;
  while ((await searchCells(app.deps.db, [projectId], `"${marker}"`, 1)).length === 0) {
    if (performance.now() > deadline) throw new Error(`the edit carrying ${marker} was not queryable after ${QUERYABLE_TIMEOUT_MS} ms`);
    await sleep(1);
  }
}

/**
 * Save-to-queryable through content replacement: the calls of the
 * `PUT …/chunks/{id}` and `PUT …/files/{id}/content` handlers (store the
 * bytes, move the file to them, nudge the reader), then polls until the
 * marker is found.
 */
async function replaceAndWait(app: App, projectId: string, fileId: string, text: string, marker: string): Promise<number> {
  const bytes = new TextEncoder().encode(text);
  const chunkId = chunkIdOf(bytes);
  const start = performance.now();
  await storeChunk({ projectId }, { chunkId, bytes, quotaBytes: app.tools.storage.quotaBytes }, app.tools);
  await replaceContent({ projectId }, { fileId, chunkId, fileSize: bytes.byteLength }, app.tools);
  app.tools.reading.kick();
  if (marker) await untilQueryable(app, projectId, marker);
  else await app.worker.whenIdle();
  return performance.now() - start;
}

/** Save-to-queryable through the folder watch: the file is written on disk and the marker polled for. */
async function saveAndWait(app: App, projectId: string, abs: string, text: string, marker: string): Promise<number> {
  const start = performance.now();
  writeFileSync(abs, text);
  await untilQueryable(app, projectId, marker);
  return performance.now() - start;
}

async function fileIdOf(app: App, projectId: string, path: string): Promise<string> {
  const file = (await listLiveFiles(app.deps.db, projectId)).find((f) => f.path === path);
  if (!file) throw new Error(`${path} is not a live file of the project`);
  return file.fileId;
}

let markers = 0;
const nextMarker = () => `zqbenchedit${++markers}x${process.pid}`;

/**
 * The edit series of one file: the line is found first (for code, the first
 * doc-comment line whose marker becomes queryable), then `edits` edits by
 * content replacement and `watchEdits` saved on disk; the original bytes are
 * put back both ways at the end.
 */
async function editSeries(app: App, watch: FolderWatch, projectId: string, root: string, path: string, kind: "code" | "markdown", plan: TreePlan): Promise<EditSeries[]> {
  const abs = join(root, path);
  const original = readFileSync(abs, "utf8");
  const fileId = await fileIdOf(app, projectId, path);
  const candidates = kind === "code" ? docCommentLines(original).slice(0, 8) : [proseLine(original)].filter((i) => i >= 0);
  const edit = (at: number, marker: string) => (kind === "code" ? editDocLine(original, at, marker) : editProseLine(original, at, marker));
  let line: number | undefined;
  for (const at of candidates) {
    const marker = nextMarker();
    try {
      await replaceAndWait(app, projectId, fileId, edit(at, marker), marker);
      line = at;
      break;
    } catch {
      // Not indexed text (a file header, a comment on no declaration): try the next line.
    }
  }
  if (line === undefined) throw new Error(`no line of ${path} takes a one-line edit that becomes queryable`);
  const at = line;
  const meta = { path, kind, lines: lineCount(original), bytes: Buffer.byteLength(original) };
  const replaced: number[] = [];
  for (let i = 0; i < plan.edits; i++) {
    const marker = nextMarker();
    replaced.push(await replaceAndWait(app, projectId, fileId, edit(at, marker), marker));
  }
  await replaceAndWait(app, projectId, fileId, original, "");
  const saved: number[] = [];
  for (let i = 0; i < plan.watchEdits; i++) {
    const marker = nextMarker();
    saved.push(await saveAndWait(app, projectId, abs, edit(at, marker), marker));
  }
  writeFileSync(abs, original);
  await sleep(300);
  await watch.settled();
  await app.worker.whenIdle();
  note(`edits of ${path} (line ${at + 1}): ${replaced.length} by content replacement, ${saved.length} saved on disk`);
  return [
    { ...meta, via: "content replacement", ms: replaced },
    ...(saved.length > 0 ? [{ ...meta, via: "saved on disk, folder watch" as const, ms: saved }] : []),
  ];
}

/** `memory_query` latencies: `rounds` passes over the queries (or until `until` says stop), `gapMs` apart. */
async function probe(app: App, local: LocalProject, queries: readonly string[], gapMs: number, keepGoing: (asked: number) => boolean): Promise<number[]> {
  const principal = localPrincipal(local);
  const times: number[] = [];
  for (let i = 0; keepGoing(i); i++) {
    const start = performance.now();
    await app.service.invoke(principal, { action: "memory_query", input: { query: queries[i % queries.length]!, budget: 4096 }, projectId: local.projectId });
    times.push(performance.now() - start);
    await sleep(gapMs);
  }
  return times;
}

async function runTree(plan: TreePlan): Promise<TreeResult> {
  const { app, local } = await openApp(plan.dbDir, plan.root);
  const rssOpenBytes = rssBytes();
  const ingests: IngestRun[] = [];
  let watch: FolderWatch | undefined;
  try {
    ingests.push(
      await timedIngest(1, "folder watch (first sync)", async () => {
        watch = watchFolder(app, local.projectId, plan.root);
        return watch.firstSync;
      }),
    );
    note(`cold ingest 1: ${(ingests[0]!.ms / 1000).toFixed(1)} s`);
    if (plan.coldOnly) return { kind: "tree", rssOpenBytes, ingests, idleQueryMs: [], edits: [], rssEndBytes: rssBytes() };

    // Warm the query path once (first-use compilation), then idle latencies.
    await probe(app, local, plan.queries, 0, (i) => i < plan.queries.length);
    const idleQueryMs = await probe(app, local, plan.queries, plan.probeGapMs, (i) => i < plan.queries.length * plan.idleRounds);
    const rssAfterQueriesBytes = rssBytes();
    note(`idle memory_query: ${idleQueryMs.length} queries`);

    const edits: EditSeries[] = [];
    if (plan.editFile) edits.push(...(await editSeries(app, watch!, local.projectId, plan.root, plan.editFile, "code", plan)));
    if (plan.longMarkdown !== undefined) {
      const abs = join(plan.root, LONG_DOC_PATH);
      writeFileSync(abs, plan.longMarkdown);
      const deadline = performance.now() + QUERYABLE_TIMEOUT_MS;
      while (!(await listLiveFiles(app.deps.db, local.projectId)).some((f) => f.path === LONG_DOC_PATH && f.status === "ready")) {
        if (performance.now() > deadline) throw new Error(`${LONG_DOC_PATH} was not read within ${QUERYABLE_TIMEOUT_MS} ms`);
        await sleep(20);
      }
      edits.push(...(await editSeries(app, watch!, local.projectId, plan.root, LONG_DOC_PATH, "markdown", plan)));
      rmSync(abs);
      await sleep(300);
      await watch!.settled();
    }
    await watch!.close();
    watch = undefined;

    for (let i = 2; i <= plan.repeat; i++) {
      const project = await createProject(app.deps.db, { name: `bench-${i}` });
      ingests.push(await timedIngest(i, "folder sync into a fresh project", () => syncFolder(app, project.projectId, plan.root)));
      note(`cold ingest ${i}: ${(ingests.at(-1)!.ms / 1000).toFixed(1)} s, RSS ${(ingests.at(-1)!.rssAfterBytes / 1048576).toFixed(0)} MiB`);
    }

    const project = await createProject(app.deps.db, { name: "bench-probed" });
    let ingesting = true;
    const probed = timedIngest(plan.repeat + 1, "folder sync into a fresh project", () => syncFolder(app, project.projectId, plan.root), false).finally(() => {
      ingesting = false;
    });
    const queryMs = await probe(app, local, plan.queries, plan.probeGapMs, () => ingesting);
    const probedRun = { ingest: await probed, queryMs };
    note(`cold ingest with memory_query beside it: ${(probedRun.ingest.ms / 1000).toFixed(1)} s, ${queryMs.length} queries`);
    return { kind: "tree", rssOpenBytes, ingests, idleQueryMs, rssAfterQueriesBytes, probed: probedRun, edits, rssEndBytes: rssBytes() };
  } finally {
    await watch?.close();
    await app.close();
  }
}

async function runDocs(plan: DocsPlan): Promise<DocsResult> {
  const { app, local } = await openApp(plan.dbDir, plan.root);
  const rssOpenBytes = rssBytes();
  let watch: FolderWatch | undefined;
  try {
    const ingest = await timedIngest(1, "folder watch (first sync)", async () => {
      watch = watchFolder(app, local.projectId, plan.root);
      return watch.firstSync;
    });
    note(`cold ingest: ${(ingest.ms / 1000).toFixed(1)} s`);
    return { kind: "docs", rssOpenBytes, ingest };
  } finally {
    await watch?.close();
    await app.close();
  }
}

async function main(): Promise<void> {
  const plan = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as HostPlan;
  let message: HostMessage;
  try {
    message = { ok: true, result: plan.kind === "tree" ? await runTree(plan) : await runDocs(plan) };
  } catch (err) {
    message = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  await new Promise<void>((done) => process.send!(message, () => done()));
  process.disconnect();
}

if (process.send) await main();
