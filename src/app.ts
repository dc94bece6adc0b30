import { randomBytes } from "node:crypto";
import type { Hono } from "hono";
import { sessionEndpoints } from "./core/session-endpoints.js";
import type { Config } from "./config.js";
import type { AnyAction } from "./core/action.js";
import { Catalog } from "./core/catalog.js";
import { createCursorCodec } from "./core/cursor.js";
import { dispatchEndpoints } from "./core/dispatch-endpoints.js";
import type { AnyEndpoint } from "./core/endpoint.js";
import { Service } from "./core/service.js";
import type { Clock, Tools } from "./core/tools.js";
import { graphEndpoints } from "./graph/graph-endpoints.js";
import { ingestEndpoints } from "./ingest/ingest-endpoints.js";
import { IngestWorker } from "./ingest/read/ingest-worker.js";
import { COLLECT_INTERVAL_MS, collectChunks } from "./ingest/accept/storage.js";
import { log } from "./logger.js";
import { tokenCounter } from "./retrieve/token-counter.js";
import { serverInstructions } from "./prompts.js";
import { openDatabase } from "./store/db.js";
import type { Db } from "./store/db.js";
import { migrate } from "./store/migrate.js";
import { settingOrCreate } from "./store/access/settings.js";
import { createHttpApp } from "./transports/http/http-app.js";
import type { HttpEnv } from "./transports/http/http-env.js";
import { McpHttpHandler } from "./transports/http/mcp-http.js";
import { actions as productActions } from "../tools/index.js";

export interface AppOptions {
  /** The action catalog; defaults to the product's tools. */
  actions?: readonly AnyAction[];
  /** REST endpoints served beside the product's (tests add their own). */
  extraEndpoints?: readonly AnyEndpoint[];
  clock?: Clock;
  /** Start the reading worker (default true; tests may hold files in the queue). */
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
  /** Every REST endpoint, in the order they are bound. */
  readonly endpoints: readonly AnyEndpoint[];
  readonly http: Hono<HttpEnv>;
  readonly mcp: McpHttpHandler;
  readonly worker: IngestWorker;
  close(): Promise<void>;
}

/** The one place everything is wired: opens and migrates the store, builds the service and transports. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const db = await openDatabase({ url: config.dbUrl, authToken: config.dbAuthToken });
  try {
    await migrate(db);
    const secret = await settingOrCreate(db, "cursor_secret", () => randomBytes(32).toString("base64url"));
    const clock = options.clock ?? Date.now;
    const cursors = createCursorCodec(secret);
    const tokens = tokenCounter(config.tokenizer);
    const worker = new IngestWorker({ db, clock, reading: config.reading });
    const tools: Tools = { clock, cursors, tokens, reading: worker, storage: { quotaBytes: config.projectQuotaBytes } };
    const catalog = new Catalog(options.actions ?? productActions);
    const service = new Service({ db, tools, catalog, rateLimit: config.rateLimit, checkOutput: options.checkOutput });
    const endpoints = [...dispatchEndpoints(service), ...sessionEndpoints, ...ingestEndpoints, ...graphEndpoints, ...(options.extraEndpoints ?? [])];
    const mcp = new McpHttpHandler({ service, instructions: serverInstructions() });
    if (options.startWorker !== false) await worker.start();
    const collector = scheduleCollection(db, clock);
    const http = createHttpApp({ config, service, mcp, endpoints });
    return {
      deps: { config, db, clock },
      db,
      tools,
      service,
      endpoints,
      http,
      mcp,
      worker,
      async close() {
        await collector.stop();
        await worker.stop();
        await mcp.close();
        db.close();
      },
    };
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Every ten minutes, collects chunks no file references (after their grace),
 * purges removed terms from the full-text indexes and truncates the WAL, so
 * replaced bytes leave the database file. `stop` waits for a pass in flight.
 */
function scheduleCollection(db: Db, clock: Clock): { stop(): Promise<void> } {
  let pass: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pass = collectChunks(db, clock()).catch((error: unknown) => log.warn("storage collection failed", { error }));
  }, COLLECT_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
