import { randomBytes } from "node:crypto";
import type { Hono } from "hono";
import type { Config } from "./config.js";
import type { AnyAction } from "./core/action.js";
import { Catalog } from "./core/catalog.js";
import { createCursorCodec } from "./core/cursor.js";
import type { Clock, ServiceDeps } from "./core/deps.js";
import { Service } from "./core/service.js";
import { IngestWorker } from "./ingest/read/ingest-worker.js";
import { tokenCounter } from "./retrieve/token-counter.js";
import { serverInstructions } from "./prompts.js";
import { openDatabase } from "./store/db.js";
import { migrate } from "./store/migrate.js";
import { settingOrCreate } from "./store/access/settings.js";
import { createHttpApp } from "./transports/http/http-app.js";
import type { HttpEnv } from "./transports/http/http-env.js";
import { McpHttpHandler } from "./transports/http/mcp-http.js";
import { graphRoutes } from "./transports/http/routes/graph-routes.js";
import { ingestRoutes } from "./transports/http/routes/ingest-routes.js";
import { actions as productActions } from "../tools/index.js";

export interface AppOptions {
  /** The action catalog; defaults to the product's tools. */
  actions?: readonly AnyAction[];
  clock?: Clock;
  /** Start the reading worker (default true; tests may hold files in the queue). */
  startWorker?: boolean;
}

/** A wired pks: store, service, and the HTTP app (MCP + REST). */
export interface App {
  readonly deps: ServiceDeps;
  readonly service: Service;
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
    const deps: ServiceDeps = {
      config,
      db,
      clock: options.clock ?? Date.now,
      cursors: createCursorCodec(secret),
      tokens: tokenCounter(config.tokenizer),
    };
    const service = new Service(deps, new Catalog(options.actions ?? productActions));
    const mcp = new McpHttpHandler({ service, instructions: serverInstructions() });
    const worker = new IngestWorker(deps);
    if (options.startWorker !== false) await worker.start();
    const http = createHttpApp({ service, mcp, routes: [(app) => ingestRoutes(app, deps, worker), (app) => graphRoutes(app, deps)] });
    return {
      deps,
      service,
      http,
      mcp,
      worker,
      async close() {
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
