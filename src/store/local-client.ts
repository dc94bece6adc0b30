/**
 * The store's connection to a local libSQL file (or memory), through the
 * synchronous `libsql` binding that `@libsql/client` itself runs on, with the
 * subset of the client's interface `db.ts` uses. Why not the client: it
 * prepares every statement anew, asks each one whether it returns rows by
 * catching an exception, and builds every row with a property definition per
 * column — together about a tenth of a cold ingest's main-thread time on
 * vuejs/core, and more of a read's. Here short statements are prepared once
 * and kept (see STATEMENT_CACHE), rows are the binding's plain objects, and
 * errors are the client's `LibsqlError`, so `mapDbError` treats both alike.
 * Remote databases (`libsql://`, `https://`) still go through the client.
 */
import Database from "libsql";
// The error class and argument types from the client's own core package (the
// same module the client re-exports): the whole client takes 127 ms to load,
// its core 11, and a query thread loads this module at its start.
import { LibsqlError } from "@libsql/core/api";
import type { InArgs, InValue } from "@libsql/core/api";

/** A value as read: blobs come back as bytes. */
export type SqlValue = null | string | number | bigint | ArrayBuffer | Uint8Array;
/** A row: its values by column name (no positional access: read columns by name). */
export type SqlRow = Record<string, SqlValue>;

/** What a statement answered: its rows, and for a write the rows it changed. */
export interface QueryResult {
  readonly rows: SqlRow[];
  readonly rowsAffected: number;
  readonly lastInsertRowid: bigint | undefined;
}

/**
 * Prepared statements kept per connection: the short ones, most recently
 * used. A short statement (a lookup, a write of a few rows: see
 * insert-rows.ts) costs about as much to prepare as to run, so it is kept;
 * a long one (a long IN list) runs for longer than it takes to prepare, and
 * its compiled program is large (a 200-row INSERT into a table with indexes
 * is hundreds of kilobytes of native memory, which the garbage collector
 * does not see): kept, long statements added about 60 MB of RSS after a
 * vuejs/core cold ingest for no measurable speed, so they are prepared and
 * run each time.
 */
const STATEMENT_CACHE = 256;
/** The longest statement text kept prepared. */
const CACHED_SQL_CHARS = 2_000;

/** What `db.ts` runs SQL through: the database, or a transaction on it. */
export interface SqlRunner {
  execute(statement: { sql: string; args: InArgs }): Promise<QueryResult>;
  executeMultiple(sql: string): Promise<void>;
}

export interface SqlTransaction extends SqlRunner {
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): void;
}

/** A connection: `@libsql/client`'s Client fits it, and so does `openLocalClient`'s. */
export interface SqlClient extends SqlRunner {
  transaction(mode: "write"): Promise<SqlTransaction>;
  close(): void;
}

interface Prepared {
  readonly statement: Database.Statement;
  /** Whether it returns rows (a SELECT, a PRAGMA, a write with RETURNING). */
  readonly reader: boolean;
}

/** The most recently used short statements of one connection, prepared (see STATEMENT_CACHE). */
class StatementCache {
  readonly #db: Database.Database;
  readonly #kept = new Map<string, Prepared>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  prepare(sql: string): Prepared {
    const hit = this.#kept.get(sql);
    if (hit) {
      // Most recently used last: the first key is the one evicted.
      this.#kept.delete(sql);
      this.#kept.set(sql, hit);
      return hit;
    }
    const statement = this.#db.prepare(sql);
    const prepared = { statement, reader: statement.reader };
    if (sql.length > CACHED_SQL_CHARS) return prepared;
    this.#kept.set(sql, prepared);
    if (this.#kept.size > STATEMENT_CACHE) this.#kept.delete(this.#kept.keys().next().value!);
    return prepared;
  }

  clear(): void {
    this.#kept.clear();
  }
}

/** Opens `path` (a file path, or ":memory:") on one connection. */
export function openLocalClient(path: string): SqlClient {
  const db = new Database(path);
  const statements = new StatementCache(db);
  let closed = false;
  const run = (sql: string, args: InArgs | undefined): QueryResult => {
    try {
      return runPrepared(statements.prepare(sql), args);
    } catch (err) {
      throw asLibsqlError(err);
    }
  };
  const runner: SqlRunner = {
    execute: async ({ sql, args }) => run(sql, args),
    executeMultiple: async (sql) => {
      try {
        db.exec(sql);
      } catch (err) {
        throw asLibsqlError(err);
      }
    },
  };
  return {
    ...runner,
    transaction: async () => {
      run("BEGIN IMMEDIATE", undefined);
      return {
        ...runner,
        commit: async () => void run("COMMIT", undefined),
        rollback: async () => {
          if (db.inTransaction) run("ROLLBACK", undefined);
        },
        close: () => undefined,
      };
    },
    close: () => {
      // The binding aborts the process on any use of a closed connection (inTransaction included).
      if (closed) return;
      closed = true;
      statements.clear();
      closeConnection(db, path);
    },
  };
}

function runPrepared({ statement, reader }: Prepared, args: InArgs | undefined): QueryResult {
  // Always one array (or one object of named values): a lone Buffer argument would be taken for the parameters themselves.
  const params = bindable(args);
  if (reader) return resultOf(statement.all(params) as SqlRow[], 0, undefined);
  const info = statement.run(params);
  return resultOf([], info.changes, BigInt(info.lastInsertRowid));
}

/**
 * Closes the connection, the WAL copied in and truncated first: SQLite
 * removes it only when the last connection of every process closes, and a
 * connection left to process exit (another thread's) kept vuejs/core's 13 MB
 * WAL beside a 95 MB database.
 */
function closeConnection(db: Database.Database, path: string): void {
  if (!db.inTransaction && path !== ":memory:") {
    try {
      // Closing waits little for other processes' readers.
      db.exec("PRAGMA busy_timeout = 200");
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch {
      // Busy (a reader of another process holds a snapshot): the WAL stays for the next checkpoint.
    }
  }
  db.close();
}

function resultOf(rows: SqlRow[], rowsAffected: number, lastInsertRowid: bigint | undefined): QueryResult {
  return { rows, rowsAffected, lastInsertRowid };
}

/** Arguments as the binding takes them, converted as the client converts them. */
function bindable(args: InArgs | undefined): unknown[] | Record<string, unknown> {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(toSql);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) named[/^[@$:]/.test(name) ? name.slice(1) : name] = toSql(value);
  return named;
}

function toSql(value: InValue | undefined): unknown {
  if (value === undefined) throw new TypeError("undefined cannot be passed as an argument to the database");
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("only finite numbers can be passed as arguments");
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/**
 * The binding's SqliteError as the client's LibsqlError, its extended code
 * (`SQLITE_CONSTRAINT_PRIMARYKEY`) as the code: `mapDbError` matches codes
 * by prefix.
 */
function asLibsqlError(err: unknown): unknown {
  if (err instanceof LibsqlError || !(err instanceof Error)) return err;
  const { code, rawCode } = err as Error & { code?: unknown; rawCode?: unknown };
  if (typeof code !== "string" || !code.startsWith("SQLITE")) return err;
  return new LibsqlError(err.message, code, code, typeof rawCode === "number" ? rawCode : undefined, err);
}
