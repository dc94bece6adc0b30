import { randomBytes } from "node:crypto";
import type { Hono } from "hono";
import { sessionEndpoints } from "./core/session-endpoints.js";
import { accountEndpoints } from "./core/account-endpoints.js";
import type { Config } from "./config.js";
import type { AnyAction } from "./core/action.js";
import { Catalog } from "./core/catalog.js";
import { createCursorCodec } from "./core/cursor.js";
import { dispatchEndpoints } from "./core/dispatch-endpoints.js";
import type { AnyEndpoint } from "./core/endpoint.js";
import { Service } from "./core/service.js";
import { folderScans } from "./core/tools.js";
import type { Clock, Tools, WriteQueue } from "./core/tools.js";
import { artifactEndpoints } from "./artifacts/artifact-endpoints.js";
import { artifactTaskKind } from "./artifacts/artifact-task.js";
import { documentIngestKind } from "./documents/document-ingest-task.js";
import { parseAllowList } from "./fetch/allow-list.js";
import { categoryEndpoints } from "./categories/category-endpoints.js";
import { typeRefillKind } from "./categories/refill-task.js";
import { graphEndpoints } from "./graph/graph-endpoints.js";
import { ingestEndpoints } from "./ingest/ingest-endpoints.js";
import { recordEndpoints } from "./records/record-endpoints.js";
import { IngestWorker } from "./ingest/read/ingest-worker.js";
import type { WorkerDeps } from "./ingest/read/ingest-worker.js";
import { LeasedWorker } from "./ingest/read/writer/leased-worker.js";
import { WriterThread } from "./ingest/read/writer/writer-host.js";
import type { ReadingWorker } from "./ingest/read/writer/writer-host.js";
import { useHeapGrowth, useThreadBuild, workerEntryUrl } from "./ingest/read/pool/spawn-reader.js";
import { COLLECT_INTERVAL_MS } from "./ingest/accept/storage.js";
import { inPlaceWrites, runWrite } from "./ingest/accept/batch-writes.js";
import { log, setLogOutput } from "./logger.js";
import { tokenCounter } from "./retrieve/token-counter.js";
import { serverInstructions } from "./prompts.js";
import { useNativeMemory } from "./native-memory.js";
import { databaseFile, leaveCheckpointsToWriter, openForStart, startError } from "./store/db.js";
import type { Db, Queryable } from "./store/db.js";
import { QUERY_THREAD_ENTRY, QueryThreads } from "./store/query-threads.js";
import { migrate } from "./store/migrate.js";
import { settingOrCreate } from "./store/access/settings.js";
import { RateLimiter } from "./access/rate-limit.js";
import { SpaceFloor } from "./store/free-space.js";
import type { TaskKind } from "./tasks/task-kind.js";
import { taskEndpoints } from "./tasks/task-endpoints.js";
import { TaskWorker } from "./tasks/task-worker.js";
import { createHttpApp } from "./transports/http/http-app.js";
import { createConsole } from "./console/console-app.js";
import type { HttpEnv } from "./transports/http/http-env.js";
import { McpHttpHandler } from "./transports/http/mcp-http.js";
import { actions as productActions, toolProfiles } from "../tools/index.js";

export interface AppOptions {
  /** The action catalog; defaults to the product's tools. */
  actions?: readonly AnyAction[];
  /** REST endpoints served beside the product's (tests add their own). */
  extraEndpoints?: readonly AnyEndpoint[];
  clock?: Clock;
  /** Task kinds the task worker runs beside the product's (tests add their own). */
  taskKinds?: readonly TaskKind[];
  /** Start the reading and task workers (default true; tests may hold files and tasks in the queue). */
  startWorker?: boolean;
  /** Check every answer against its operation's output schema (tests turn this on). */
  checkOutput?: boolean;
}

/** What the wiring made, for the command line and tests: configuration, store and clock. */
export interface AppDeps {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
}

/** A wired pks: store, service, and the HTTP app (MCP + REST). */
export interface App {
  readonly deps: AppDeps;
  readonly db: Db;
  readonly tools: Tools;
  readonly service: Service;
  /** The rate limit, decided in memory and written in batches (`flush` writes and reads the batches now). */
  readonly rateLimit: RateLimiter;
  /** The actions MCP offers as tools: the catalog as `--tools` / `PKS_TOOLS` selects it. */
  readonly mcpCatalog: Catalog;
  /** Every REST endpoint, in the order they are bound. */
  readonly endpoints: readonly AnyEndpoint[];
  readonly http: Hono<HttpEnv>;
  readonly mcp: McpHttpHandler;
  readonly worker: ReadingWorker;
  /** The task worker: runs detached work (also `tools.tasks`). */
  readonly tasks: TaskWorker;
  close(): Promise<void>;
}

/** Every REST endpoint of the product, the action dispatch first. */
function productEndpoints(service: Service): AnyEndpoint[] {
  return [...dispatchEndpoints(service), ...sessionEndpoints, ...accountEndpoints, ...ingestEndpoints, ...graphEndpoints, ...categoryEndpoints, ...taskEndpoints, ...artifactEndpoints, ...recordEndpoints];
}

/** Stops the background work first (no new writes), then the transports' sessions, then the store. */
async function closeInOrder(background: Array<{ stop(): Promise<void> }>, mcp: { close(): Promise<void> }, rateLimit: { close(): Promise<void> }, db: { close(): void }): Promise<void> {
  for (const part of background) await part.stop();
  await mcp.close();
  await rateLimit.close();
  db.close();
}

/** The one place everything is wired: opens and migrates the store, builds the service and transports. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  setLogOutput(config.logs);
  useThreadBuild(config.threadBuild);
  useHeapGrowth(config.heapGrowingPercent);
  const db = await openForStart({ url: config.dbUrl, authToken: config.dbAuthToken }, migrate);
  // Before the reader and writer threads start, so they share the bounded arenas.
  const nativeMemory = useNativeMemory(config.malloc);
  try {
    const secret = await settingOrCreate(db, "cursor_secret", () => randomBytes(32).toString("base64url"));
    const clock = options.clock ?? Date.now;
    const cursors = createCursorCodec(secret);
    const tokens = tokenCounter(config.tokenizer);
    const worker = readingWorker(config, db, clock, options.clock !== undefined);
    // The worker runs every task through the service's pipeline, made below (the tools hold the worker as their task queue).
    const tasks = new TaskWorker([...productTaskKinds(config), ...(options.taskKinds ?? [])], {
      db,
      clock,
      pipeline: (task, handler) => service.runTask(task, handler),
    });
    const floor = new SpaceFloor(config.dbUrl, config.minFreeMb);
    const storage = { quotaBytes: config.projectQuotaBytes, submitDailyMax: config.submitDailyMax, assertRoom: () => floor.assertRoom() };
    const writes = writeQueue(worker, db);
    const queries = queryReads(config, db);
    const tools: Tools = { clock, cursors, tokens, reading: worker, storage, tasks, scans: folderScans(), writes, queries: queries.queryable };
    const catalog = new Catalog(options.actions ?? productActions);
    const offered = catalog.select(config.tools, toolProfiles);
    const rateLimit = new RateLimiter(db, config.rateLimit, clock, (batch) => runWrite(writes, "rate.record", batch));
    await rateLimit.start();
    const service = new Service({ db, tools, catalog, rateLimit, checkOutput: options.checkOutput });
    const endpoints = [...productEndpoints(service), ...(options.extraEndpoints ?? [])];
    const mcp = new McpHttpHandler({ service, catalog: offered, maxResultTokens: config.maxResultTokens, endpoints, instructions: serverInstructions() });
    if (options.startWorker !== false) {
      await worker.start();
      if (worker instanceof WriterThread) await leaveCheckpointsToWriter(db);
      await tasks.start();
    }
    const collector = scheduleCollection(() => runWrite(writes, "storage.collect", { nowMs: clock() }));
    const http = createHttpApp({ config, service, mcp, endpoints, console: createConsole({ service, endpoints }) });
    return {
      deps: { config, db, clock },
      db,
      tools,
      service,
      rateLimit,
      mcpCatalog: offered,
      endpoints,
      http,
      mcp,
      worker,
      tasks,
      close: () => closeInOrder([collector, tasks, worker, queries, nativeMemory], mcp, rateLimit, db),
    };
  } catch (err) {
    await nativeMemory.stop();
    db.close();
    throw startError(err, config.dbUrl);
  }
}

/** What long answers read through (`tools.queries`): query threads on a local file unless `PKS_QUERY_THREADS=0`, else the database. */
function queryReads(config: Config, db: Db): { queryable: Queryable; stop(): Promise<void> } {
  const path = databaseFile(config.dbUrl);
  if (!path || config.queryThreads === 0) return { queryable: db, stop: async () => undefined };
  const threads = new QueryThreads({ path, threads: config.queryThreads, entry: workerEntryUrl(QUERY_THREAD_ENTRY) });
  return { queryable: threads.queryable(db), stop: () => threads.close() };
}

/**
 * The reading worker: on a local file, in the writer thread with its own
 * connection, so no reading's commit runs on the thread that answers
 * requests (nor an upload's: the thread is also the app's `WriteQueue`); in the serving thread on a remote database (a client cannot be
 * shared with a thread) and when a test drives the clock (nor can it).
 * Either way only the holder of the writer lease reads, among the
 * processes on the database; a memory database has only this process.
 */
function readingWorker(config: Config, db: Db, clock: Clock, ownClock: boolean): ReadingWorker {
  if (db.kind === "file" && db.turns && !ownClock) {
    const { dbUrl: url, dbAuthToken: authToken, reading, minFreeMb } = config;
    return new WriterThread({ url, authToken, reading, readersUrl: undefined, minFreeMb, turns: db.turns.buffer }, db);
  }
  const floor = new SpaceFloor(config.dbUrl, config.minFreeMb);
  const make = (holds?: WorkerDeps["holds"]) => new IngestWorker({ db, clock, reading: config.reading, holds, room: () => floor.above() });
  return db.kind === "memory" ? make() : new LeasedWorker(db, make);
}

/** Where uploads and folder syncs commit their bytes: the writer thread when there is one, else in place. */
function writeQueue(worker: ReadingWorker, db: Db): WriteQueue {
  return worker instanceof WriterThread ? worker : inPlaceWrites(db);
}

/**
 * The product's task kinds: the detached work of its actions, made per app.
 * `PKS_ARTIFACT_STEP_DELAY_MS` is a test knob (default 0), read when the app
 * is made: a pause after each step of an artifact build, so a test can see
 * a build running, or kill the server while one runs.
 */
function productTaskKinds(config: Config): TaskKind[] {
  return [
    typeRefillKind,
    artifactTaskKind({ stepDelayMs: Math.max(0, Number(process.env.PKS_ARTIFACT_STEP_DELAY_MS) || 0) }),
    documentIngestKind({ root: config.root, fetch: { allow: parseAllowList(config.fetch.allow), timeoutMs: config.fetch.timeoutMs } }),
  ];
}

/**
 * Every ten minutes, collects chunks no file references (after their grace),
 * purges removed terms from the full-text indexes and truncates the WAL, so
 * replaced bytes leave the database file: on the writer thread when there
 * is one (the FTS optimize and the checkpoint held the serving thread for
 * seconds on a large store), else in place. `stop` waits for a pass in flight.
 */
function scheduleCollection(collect: () => Promise<unknown>): { stop(): Promise<void> } {
  let pass: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pass = collect().catch((error: unknown) => log.warn("storage collection failed", { error }));
  }, COLLECT_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
