import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { z } from "zod";

/** Every setting of a running pks, parsed once from flags and environment. */
export interface Config {
  /** The project folder served (absolute). */
  readonly root: string;
  /** libSQL URL: `file:` for the embedded default, `libsql://` / `http(s)://` for a server. */
  readonly dbUrl: string;
  readonly dbAuthToken: string | undefined;
  readonly host: string;
  readonly port: number;
  /** Host names (without port) accepted in `Host` besides the loopback names. */
  readonly allowedHosts: readonly string[];
  /** Origins accepted in `Origin` besides the loopback origins. */
  readonly allowedOrigins: readonly string[];
  /** tiktoken encoding used to count tokens. */
  readonly tokenizer: "o200k_base" | "cl100k_base";
  readonly rateLimit: { readonly max: number; readonly windowMs: number };
  /**
   * Reader threads: how many read at once (`PKS_READERS`, default all cores
   * but one, at least 1), each one's heap in MB (`PKS_READER_HEAP_MB`, 1024)
   * and the time one reading may take (`PKS_READ_TIMEOUT_MS`, 60,000). A file
   * past either limit fails alone; the server goes on. A thread that holds
   * more than `retireMb` after a reading (`PKS_READER_RETIRE_MB`, 160: heap
   * and WASM memory) finishes the files it has and is replaced by a fresh one.
   */
  readonly reading: { readonly threads: number; readonly heapMb: number; readonly timeoutMs: number; readonly retireMb: number };
  /**
   * Threads the reads of `memory_query` and `code_context_pack` answers run
   * on, each with a read-only connection of its own (`PKS_QUERY_THREADS`,
   * default the cores, at most 2; 0 runs them on the serving thread's read
   * connection). Only for a local database file (`src/store/query-threads.ts`).
   */
  readonly queryThreads: number;
  /**
   * How far past its live objects each thread's old generation may grow
   * before a major collection, in percent (`PKS_HEAP_GROWING_PERCENT`, 30;
   * 0 leaves V8's own factor). V8 picks a factor of 1.1–4× from its
   * collection speed, and during a cold ingest the threads (serving, accept,
   * reader, writer) each sat on tens of MB of garbage between collections
   * at the same time: their sum was the process's peak. The setting is
   * process-wide (V8 reads it at each collection, in every thread) and costs
   * more frequent major collections of small heaps.
   */
  readonly heapGrowingPercent: number;
  /**
   * The C allocator, where it is glibc's (`src/native-memory.ts`): at most
   * `arenas` malloc arenas for the process (`PKS_MALLOC_ARENAS`, 2; 0 keeps
   * glibc's eight per core), and freed pages given back to the system each
   * time the resident size has grown by `trimMb` (`PKS_MALLOC_TRIM_MB`, 16;
   * 0 never). On the 4 M-line tree the two took the peak RSS from 589–619
   * to 454–502 MB, and glibc's arenas and main heap at the peak from 235 to
   * 74–90 MB.
   */
  readonly malloc: { readonly arenas: number; readonly trimMb: number };
  /** Most bytes (chunks and records) one project may store (`PKS_PROJECT_QUOTA_BYTES`, 1 GiB); past it ingest, uploads and records are 413. */
  readonly projectQuotaBytes: number;
  /** Most records one `submit` key may file in any 24 hours (`PKS_SUBMIT_DAILY_MAX`, 1,000); past it 429. */
  readonly submitDailyMax: number;
  /**
   * The free space, in MB, kept on the database's disk (`PKS_MIN_FREE_MB`,
   * 128; 0 turns the floor off): below it uploads and ingests are 503
   * `storage_full` and reading pauses, so the disk never fills to the last
   * byte. 128 MB holds what the server writes after the last upload it took:
   * that upload's chunks (an ingest call is at most 24 MB), the WAL growing
   * to the size at which it is truncated (32 MB) and the checkpoint copying
   * it into the database file, with room to spare for the readings of the
   * files already queued.
   */
  readonly minFreeMb: number;
  /**
   * Document fetching (`document_ingest` of a URL): `allow` lists the hosts,
   * addresses and CIDR blocks (each optionally `:port`) that may be fetched
   * although they are not public (`PKS_FETCH_ALLOW`, comma-separated, empty
   * by default); `timeoutMs` bounds one whole fetch (`PKS_FETCH_TIMEOUT_MS`, 30,000).
   */
  readonly fetch: { readonly allow: readonly string[]; readonly timeoutMs: number };
  /**
   * The tools MCP offers (`--tools`, `PKS_TOOLS`): profiles (`all`, the
   * default; `code`) and tool names, comma-separated. Checked against the
   * catalog when the app is made (an unknown name stops it, naming the
   * choices); REST dispatch always serves the whole catalog.
   */
  readonly tools: readonly string[];
  /**
   * The most tokens one MCP tool result may hold as the client receives it
   * (`PKS_MAX_RESULT_TOKENS`, 25,000: where Claude Code cuts tool output by
   * default). A budget above what fits is clamped; an answer that cannot
   * fit is refused naming the limit.
   */
  readonly maxResultTokens: number;
  /**
   * The artifact schema a local caller (stdio, `pks call`) files
   * `object_submit` records under (`--submit-type`, `PKS_SUBMIT_TYPE`): the
   * folder owner's binding, as a key's bound type is for a key. Unset, the
   * local owner has none and `object_submit` says so.
   */
  readonly submitType: string | undefined;
  /** Where the JSON log records go (`PKS_LOG`): `stderr` (the default) or nowhere, `silent`. */
  readonly logs: "stderr" | "silent";
  /**
   * Development only (`PKS_THREAD_BUILD`): a folder holding a JavaScript
   * copy of `src/`, which a pks run from its TypeScript sources starts its
   * threads and reader processes from instead of registering tsx's loader
   * in each (seconds apiece). The test run makes one
   * (test/support/thread-build.ts). A built pks ignores it.
   */
  readonly threadBuild: string | undefined;
}

/** Flags as the CLI collected them; each overrides its environment variable. */
export interface ConfigFlags {
  root?: string;
  db?: string;
  host?: string;
  port?: string | number;
  tools?: string;
  submitType?: string;
}

const list = z
  .string()
  .optional()
  .transform((v) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean));

const schema = z.object({
  root: z.string().min(1),
  dbUrl: z
    .string()
    .regex(/^(:memory:$|file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/, "PKS_DB_URL must be :memory:, a file:, libsql://, http(s):// or ws(s):// URL"),
  dbAuthToken: z.string().optional(),
  host: z.string().min(1),
  port: z.coerce.number().int().min(0).max(65535),
  allowedHosts: list,
  allowedOrigins: list,
  tokenizer: z.enum(["o200k_base", "cl100k_base"]),
  rateLimitMax: z.coerce.number().int().positive(),
  rateLimitWindowMs: z.coerce.number().int().positive(),
  readers: z.coerce.number().int().positive(),
  readerHeapMb: z.coerce.number().int().min(16),
  queryThreads: z.coerce.number().int().min(0).max(16),
  readTimeoutMs: z.coerce.number().int().positive(),
  readerRetireMb: z.coerce.number().int().min(32),
  heapGrowingPercent: z.coerce.number().int().min(0).max(1000),
  mallocArenas: z.coerce.number().int().min(0).max(64),
  mallocTrimMb: z.coerce.number().int().min(0),
  projectQuotaBytes: z.coerce.number().int().positive(),
  submitDailyMax: z.coerce.number().int().positive(),
  minFreeMb: z.coerce.number().int().min(0),
  fetchAllow: list,
  fetchTimeoutMs: z.coerce.number().int().positive(),
  maxResultTokens: z.coerce.number().int().min(1000),
  submitType: z.string().trim().min(1, "must name an artifact schema id").optional(),
  logs: z.enum(["stderr", "silent"]),
  threadBuild: z.string().optional(),
  tools: list.refine((names) => names.length > 0, "names no tool or profile (all, code, or tool names, comma-separated)"),
});

/** Each setting as given, before parsing: the flag, else its `PKS_*` variable, else the default. */
function rawSettings(flags: ConfigFlags, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const root = resolve(flags.root ?? env.PKS_ROOT ?? process.cwd());
  return {
    root,
    dbUrl: flags.db ?? env.PKS_DB_URL ?? `file:${resolve(root, ".pks", "pks.db")}`,
    dbAuthToken: env.PKS_DB_AUTH_TOKEN || undefined,
    host: flags.host ?? env.PKS_HOST ?? "127.0.0.1",
    port: flags.port ?? env.PKS_PORT ?? 8787,
    allowedHosts: env.PKS_ALLOWED_HOSTS,
    allowedOrigins: env.PKS_ALLOWED_ORIGINS,
    tokenizer: env.PKS_TOKENIZER ?? "o200k_base",
    rateLimitMax: env.PKS_RATE_LIMIT ?? 60,
    rateLimitWindowMs: env.PKS_RATE_WINDOW_MS ?? 60_000,
    readers: env.PKS_READERS ?? Math.max(1, availableParallelism() - 1),
    readerHeapMb: env.PKS_READER_HEAP_MB ?? 1024,
    queryThreads: env.PKS_QUERY_THREADS ?? Math.min(2, availableParallelism()),
    readTimeoutMs: env.PKS_READ_TIMEOUT_MS ?? 60_000,
    readerRetireMb: env.PKS_READER_RETIRE_MB ?? 160,
    heapGrowingPercent: env.PKS_HEAP_GROWING_PERCENT ?? 30,
    mallocArenas: env.PKS_MALLOC_ARENAS ?? 2,
    mallocTrimMb: env.PKS_MALLOC_TRIM_MB ?? 16,
    projectQuotaBytes: env.PKS_PROJECT_QUOTA_BYTES ?? 1024 * 1024 * 1024,
    submitDailyMax: env.PKS_SUBMIT_DAILY_MAX ?? 1000,
    minFreeMb: env.PKS_MIN_FREE_MB ?? 128,
    fetchAllow: env.PKS_FETCH_ALLOW,
    fetchTimeoutMs: env.PKS_FETCH_TIMEOUT_MS ?? 30_000,
    tools: flags.tools ?? env.PKS_TOOLS ?? "all",
    maxResultTokens: env.PKS_MAX_RESULT_TOKENS ?? 25_000,
    submitType: flags.submitType ?? env.PKS_SUBMIT_TYPE,
    logs: env.PKS_LOG || "stderr",
    threadBuild: env.PKS_THREAD_BUILD || undefined,
  };
}

/** Builds the frozen Config from flags, then `PKS_*` environment variables, then defaults. */
export function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(rawSettings(flags, env));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`invalid configuration: ${first?.path.join(".")}: ${first?.message}`);
  }
  const c = parsed.data;
  return Object.freeze({
    root: c.root,
    dbUrl: c.dbUrl,
    dbAuthToken: c.dbAuthToken,
    host: c.host,
    port: c.port,
    allowedHosts: Object.freeze(c.allowedHosts),
    allowedOrigins: Object.freeze(c.allowedOrigins),
    tokenizer: c.tokenizer,
    rateLimit: Object.freeze({ max: c.rateLimitMax, windowMs: c.rateLimitWindowMs }),
    reading: Object.freeze({ threads: c.readers, heapMb: c.readerHeapMb, timeoutMs: c.readTimeoutMs, retireMb: c.readerRetireMb }),
    queryThreads: c.queryThreads,
    heapGrowingPercent: c.heapGrowingPercent,
    malloc: Object.freeze({ arenas: c.mallocArenas, trimMb: c.mallocTrimMb }),
    projectQuotaBytes: c.projectQuotaBytes,
    submitDailyMax: c.submitDailyMax,
    minFreeMb: c.minFreeMb,
    fetch: Object.freeze({ allow: Object.freeze(c.fetchAllow), timeoutMs: c.fetchTimeoutMs }),
    tools: Object.freeze(c.tools),
    maxResultTokens: c.maxResultTokens,
    submitType: c.submitType,
    logs: c.logs,
    threadBuild: c.threadBuild,
  });
}
