/**
 * What `bench/ingest.ts` asks of its pks host process (`ingest-host.ts`)
 * and what the host answers. The host is a separate process so that its
 * peak RSS is pks's alone: the baselines (ctags, the parse-only threads)
 * run in the parent or in their own processes.
 */

/** The code tree: cold ingests, edits, `memory_query` idle and during an ingest. */
export interface TreePlan {
  kind: "tree";
  /** The folder synced, as `pks serve --root` would. */
  root: string;
  /** Where the host's fresh database file goes. */
  dbDir: string;
  /** Cold ingests of the tree into fresh projects of the one process (the first through the folder watch). */
  repeat: number;
  /** `memory_query` texts, asked in turn. */
  queries: string[];
  /** Rounds of `queries` while nothing is ingested. */
  idleRounds: number;
  /** Pause between two probes, idle and during the ingest alike. */
  probeGapMs: number;
  /** One-line edits per file through content replacement. */
  edits: number;
  /** One-line edits per file saved on disk and picked up by the folder watch. */
  watchEdits: number;
  /** The code file edited (relative to root), or none. */
  editFile?: string | undefined;
  /** The Markdown document (about 2,000 lines) added for the edit series, or none. */
  longMarkdown?: string | undefined;
  /** Only the first cold ingest (for a CPU profile). */
  coldOnly: boolean;
}

/** The document corpus: one cold ingest through the folder watch. */
export interface DocsPlan {
  kind: "docs";
  root: string;
  dbDir: string;
}

export type HostPlan = TreePlan | DocsPlan;

/** One cold ingest: the sync until every file is read. */
export interface IngestRun {
  /** Which ingest this was in the process (1-based). */
  index: number;
  via: "folder watch (first sync)" | "folder sync into a fresh project";
  ms: number;
  /** CPU of the whole process (main thread and reader threads). */
  cpuMs: number;
  /** VmHWM over the ingest (the window reset just before it). */
  peakRssBytes: number | undefined;
  /** Largest of RSS samples every 100 ms. */
  sampledPeakRssBytes: number;
  /** RSS and heap once the ingest finished. */
  rssAfterBytes: number;
  /** RSS once the server has been idle for SETTLE_MS after the ingest (reader threads that read much are replaced when idle): what serving costs. */
  rssSettledBytes: number;
  heapUsedAfterBytes: number;
  files: number;
  added: number;
  failed: number;
  refused: number;
  skipped: number;
  factions: number;
  cells: number;
  entities: number;
}

/** Save-to-queryable times of one file's one-line edits. */
export interface EditSeries {
  path: string;
  kind: "code" | "markdown";
  via: "content replacement" | "saved on disk, folder watch";
  lines: number;
  bytes: number;
  ms: number[];
}

export interface TreeResult {
  kind: "tree";
  /** RSS once the app is open, before any file is read. */
  rssOpenBytes: number;
  ingests: IngestRun[];
  idleQueryMs: number[];
  /**
   * RSS once the idle queries were answered: serving as a server does, with
   * what answering loads on first use (the token counter's tables) in it.
   */
  rssAfterQueriesBytes?: number | undefined;
  /** A cold ingest of a fresh project with `memory_query` on the first project asked during it. */
  probed?: { ingest: IngestRun; queryMs: number[] } | undefined;
  edits: EditSeries[];
  /** RSS once everything above is done. */
  rssEndBytes: number;
}

export interface DocsResult {
  kind: "docs";
  rssOpenBytes: number;
  ingest: IngestRun;
}

export type HostResult = TreeResult | DocsResult;

/** The host's message back: its result or why it failed. */
export type HostMessage = { ok: true; result: HostResult } | { ok: false; error: string };
