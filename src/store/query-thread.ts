/**
 * A query thread's entry (see query-threads.ts): one read-only connection to
 * the database file, answering statements posted by the serving thread one
 * at a time. The thread may block in SQLite's busy handler (a checkpoint
 * truncating the WAL), since nothing else waits on its event loop.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openLocalClient } from "./local-client.js";
import type { SqlClient } from "./local-client.js";
import type { QueryAnswer, QueryRequest, QueryThreadData } from "./query-threads.js";

/** How long a statement waits on a locked file before it fails busy (as a transaction does across processes). */
const BUSY_TIMEOUT_MS = 10_000;

const { path } = workerData as QueryThreadData;
const port = parentPort!;

async function open(): Promise<SqlClient> {
  const client = openLocalClient(path);
  try {
    await client.execute({ sql: `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`, args: [] });
    await client.execute({ sql: "PRAGMA query_only = ON", args: [] });
    return client;
  } catch (err) {
    client.close();
    throw err;
  }
}

async function answer(client: SqlClient, request: QueryRequest): Promise<QueryAnswer> {
  try {
    const result = await client.execute({ sql: request.sql, args: request.args });
    return { id: request.id, rows: result.rows };
  } catch (err) {
    const { message, code, rawCode } = err as Error & { code?: unknown; rawCode?: unknown };
    return { id: request.id, error: { message: String(message), code: typeof code === "string" ? code : "UNKNOWN", rawCode: typeof rawCode === "number" ? rawCode : undefined } };
  }
}

const opened = open();
void opened.then(
  () => port.postMessage({ type: "ready" } satisfies QueryAnswer),
  (err: unknown) => port.postMessage({ type: "failed", message: String(err) } satisfies QueryAnswer),
);
port.on("message", (message: QueryRequest | { type: "close" }) => {
  if ("type" in message) {
    void opened.then(
      (client) => client.close(),
      () => undefined,
    ).finally(() => port.close());
    return;
  }
  void opened.then(async (client) => port.postMessage(await answer(client, message)));
});
