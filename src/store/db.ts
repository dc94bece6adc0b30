import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient, LibsqlError } from "@libsql/client";
import type { InArgs } from "@libsql/client";
import { AppError } from "../errors.js";
import { isSpaceFailure, spaceRefusal } from "./free-space.js";
import { openLocalClient } from "./local-client.js";
import type { QueryResult, SqlClient, SqlRow, SqlTransaction } from "./local-client.js";
import { createMutex } from "./mutex.js";
import { WriteTurns } from "./write-turns.js";

export type { QueryResult, SqlRow } from "./local-client.js";

/** Something SQL can run on: the database itself, or an open transaction. */
export interface Queryable {
  execute(sql: string, args?: InArgs): Promise<QueryResult>;
  all<T = SqlRow>(sql: string, args?: InArgs): Promise<T[]>;
  get<T = SqlRow>(sql: string, args?: InArgs): Promise<T | undefined>;
  /** Runs a multi-statement SQL script (migrations). */
  script(sql: string): Promise<void>;
}

export type DbKind = "file" | "memory" | "remote";

/**
 * The store's handle on libSQL. Writes are serialized through one lane; on a
 * local file, reads outside a transaction run on a connection of their own
 * (a WAL snapshot of the last commit) and wait for no write.
 */
export interface Db extends Queryable {
  readonly kind: DbKind;
  /** Turns at the write lock shared with a writer thread on the same file (local files only). */
  readonly turns: WriteTurns | undefined;
  /** Runs `fn` inside one write transaction: fully applied or fully rolled back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): void;
}

export interface OpenOptions {
  url: string;
  authToken?: string | undefined;
  /**
   * `serve` (the default): the thread that answers requests. On a local file
   * it reads on a connection of its own, and never blocks its event loop
   * waiting for the write lock: a busy lock is retried after short sleeps
   * (BUSY_WAIT_MS in all), while it says so in `turns`. `writer`: the writer
   * thread, one connection that waits in SQLite's busy handler (its thread
   * answers no request) and lets waiting requests go first before each
   * transaction.
   */
  role?: "serve" | "writer";
  /** The turns shared with the other role's thread (a writer gets the server's). */
  turns?: WriteTurns;
}

/** How long a statement waits for the write lock in all before it fails as unavailable. */
const BUSY_WAIT_MS = 10_000;
/**
 * The WAL size past which the writer copies it into the database and
 * truncates it after a commit. SQLite's own checkpoint after a commit copies
 * frames but starts the WAL over only when no reader holds an older
 * snapshot, and with reads on their own connection every 50 ms during a
 * cold ingest one almost always did: the WAL of vuejs/core grew to 160 MB.
 */
const WAL_TRUNCATE_BYTES = 32 * 1024 * 1024;
/**
 * What an emptied WAL is cut to when it starts over (journal_size_limit),
 * and the WAL pages after which a commit copies them into the database
 * (wal_autocheckpoint; SQLite's default is 1,000 pages, 4 MB). The two
 * together bound the WAL an idle store keeps beside its database: with
 * 4 MB and 1,000 pages, the small commits of a serving process (rate-limit
 * batches, sessions) grew it back to 4 MB after every checkpoint, 11 % of
 * vuejs/core's store. At 1 MB, a checkpoint copies a quarter as many pages
 * at a time, four times as often.
 */
const WAL_KEPT_BYTES = 1024 * 1024;
const WAL_CHECKPOINT_PAGES = 256;

/**
 * Opens the database, applies the connection pragmas and asserts them.
 * Local files run with WAL and `synchronous=FULL`; foreign keys and
 * `secure_delete` are on everywhere they can be (deleted content is
 * overwritten with zeros, so removed bytes and text leave the file).
 */
export async function openDatabase(options: OpenOptions): Promise<Db> {
  const kind = kindOf(options.url);
  if (kind === "file") ensureParentFolder(options.url);
  // One connection: pragmas are per connection, and a single serialized
  // lane makes transactions atomic within the process. Local files and
  // memory go through the synchronous binding (see local-client.ts).
  const client: SqlClient =
    kind === "remote" ? createClient({ url: options.url, authToken: options.authToken, concurrency: 1 }) : openLocalClient(localPath(options.url, kind));
  const role = options.role ?? "serve";
  const serving = kind === "file" && role === "serve";
  let reads: SqlClient | undefined;
  try {
    reads = serving ? openLocalClient(localPath(options.url, kind)) : undefined;
    const turns = kind === "file" ? (options.turns ?? new WriteTurns()) : undefined;
    const walPath = kind === "file" && role === "writer" ? `${localPath(options.url, kind)}-wal` : undefined;
    const db = wrap(client, kind, { reads, turns, role, walPath });
    await applyPragmas(db, kind, serving ? 0 : BUSY_WAIT_MS);
    if (reads) await readsOnly(reads);
    return db;
  } catch (err) {
    client.close();
    reads?.close();
    throw err;
  }
}

/** The read connection: it can write nothing (a statement taken for a read by mistake fails and goes to the lane). */
async function readsOnly(reads: SqlClient): Promise<void> {
  await reads.execute({ sql: "PRAGMA busy_timeout = 0", args: [] });
  await reads.execute({ sql: "PRAGMA query_only = ON", args: [] });
}

/** The file a database URL names, when it names a local file (not memory, not a server). */
export function databaseFile(url: string): string | undefined {
  return kindOf(url) === "file" ? filePath(url) : undefined;
}

function kindOf(url: string): DbKind {
  if (url === ":memory:" || url === "file::memory:" || url.startsWith("file::memory:?")) return "memory";
  if (url.startsWith("file:")) return "file";
  return "remote";
}

function filePath(url: string): string {
  return url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length).split("?")[0]!;
}

function localPath(url: string, kind: DbKind): string {
  return kind === "memory" ? ":memory:" : filePath(url);
}

function ensureParentFolder(url: string): void {
  mkdirSync(dirname(filePath(url)), { recursive: true });
}

async function applyPragmas(db: Db, kind: DbKind, busyTimeoutMs: number): Promise<void> {
  if (kind === "remote") return;
  await db.execute("PRAGMA foreign_keys = ON");
  await db.execute(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  await db.execute("PRAGMA secure_delete = ON");
  if (kind === "file") {
    await db.execute("PRAGMA journal_mode = WAL");
    await db.execute("PRAGMA synchronous = FULL");
    // A WAL that a checkpoint emptied starts over cut to this size: left as it
    // grew, an idle vuejs/core database kept a WAL of up to 32 MB (WAL_TRUNCATE_BYTES).
    await db.execute(`PRAGMA journal_size_limit = ${WAL_KEPT_BYTES}`);
    await db.execute(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  }
  await assertPragmas(db, kind);
}

/** Reads the pragmas back; a database that does not hold them is not served. */
export async function assertPragmas(db: Queryable, kind: DbKind): Promise<void> {
  const fk = await db.get<{ foreign_keys: number }>("PRAGMA foreign_keys");
  if (Number(fk?.foreign_keys) !== 1) throw new Error("database check failed: foreign_keys is not on");
  const sd = await db.get<{ secure_delete: number }>("PRAGMA secure_delete");
  if (Number(sd?.secure_delete) !== 1) throw new Error("database check failed: secure_delete is not on");
  if (kind !== "file") return;
  const jm = await db.get<{ journal_mode: string }>("PRAGMA journal_mode");
  if (String(jm?.journal_mode).toLowerCase() !== "wal") throw new Error("database check failed: journal_mode is not wal");
  const sync = await db.get<{ synchronous: number }>("PRAGMA synchronous");
  if (Number(sync?.synchronous) !== 2) throw new Error("database check failed: synchronous is not FULL");
}

/**
 * Leaves the WAL's checkpoints to another connection of the process (the
 * writer thread's): the serving connection's commits no longer copy the WAL
 * into the database after them. SQLite runs that checkpoint in whichever
 * connection commits past `wal_autocheckpoint` pages, and after the writer's
 * large commits the serving thread's next small one (a session) copied
 * megabytes and waited for their fsync with every request behind it. The
 * writer thread commits at least every second (its lease), so the WAL stays
 * bounded as before. Only for a local file with a writer thread running.
 */
export async function leaveCheckpointsToWriter(db: Db): Promise<void> {
  if (db.kind === "file") await db.execute("PRAGMA wal_autocheckpoint = 0");
}

/** What `PRAGMA wal_checkpoint` answered: frames in the WAL and frames copied, -1 when not in WAL mode. */
export interface Checkpoint {
  busy: boolean;
  walFrames: number;
  checkpointedFrames: number;
}

/**
 * Copies the WAL into the database file and truncates the WAL to zero
 * bytes, so page images of deleted content do not linger in it (a plain
 * checkpoint rewinds the WAL but leaves old frames until overwritten).
 * Not inside a transaction; a no-op on remote databases.
 */
export async function checkpointWal(db: Db): Promise<Checkpoint | undefined> {
  if (db.kind === "remote") return undefined;
  const row = await db.get<{ busy: number; log: number; checkpointed: number }>("PRAGMA wal_checkpoint(TRUNCATE)");
  return { busy: Number(row?.busy) === 1, walFrames: Number(row?.log ?? -1), checkpointedFrames: Number(row?.checkpointed ?? -1) };
}

interface WrapOptions {
  /** The connection reads outside a transaction run on (a serving local file). */
  readonly reads: SqlClient | undefined;
  readonly turns: WriteTurns | undefined;
  readonly role: "serve" | "writer";
  /** The WAL the writer truncates once it grew past WAL_TRUNCATE_BYTES. */
  readonly walPath: string | undefined;
}

function wrap(client: SqlClient, kind: DbKind, options: WrapOptions): Db {
  const lane = createMutex();
  const { reads, turns, role } = options;
  // A serving thread retries a busy lock after sleeps instead of blocking its event loop in SQLite's busy handler.
  const free = <T>(work: () => Promise<T>): Promise<T> => (reads ? whenFree(work, turns) : work());
  const direct = queryableOf(
    (sql, args) => free(() => client.execute({ sql, args: args ?? [] })),
    (sql) => free(() => client.executeMultiple(sql)),
  );
  const serialized: Queryable = {
    execute: (sql, args) => lane.run(() => direct.execute(sql, args)),
    all: (sql, args) => lane.run(() => direct.all(sql, args)),
    get: (sql, args) => lane.run(() => direct.get(sql, args)),
    script: (sql) => lane.run(() => direct.script(sql)),
  };
  const read = reads ? readFirst(reads, serialized) : serialized;
  const begin = async (): Promise<SqlTransaction> => {
    if (role === "writer") await turns?.yieldToRequests();
    return free(() => client.transaction("write"));
  };
  return {
    kind,
    turns,
    ...read,
    script: serialized.script,
    transaction: (fn) =>
      lane.run(async () => {
        const value = await runTransaction(begin, fn);
        if (options.walPath) await truncateGrownWal(options.walPath, direct);
        return value;
      }),
    close: () => {
      client.close();
      reads?.close();
    },
  };
}

/** After a commit: a WAL grown past WAL_TRUNCATE_BYTES is copied and truncated (waiting for readers in the busy handler). */
async function truncateGrownWal(walPath: string, q: Queryable): Promise<void> {
  let size = 0;
  try {
    size = statSync(walPath).size;
  } catch {
    return;
  }
  if (size > WAL_TRUNCATE_BYTES) await q.get("PRAGMA wal_checkpoint(TRUNCATE)").catch(() => undefined);
}

/**
 * Statements that can only read run on the read connection, outside the
 * lane; anything else (and a read the connection refuses) goes through
 * the lane. A statement that starts with SELECT reads; one that starts with
 * WITH reads unless it names a write anywhere (taken conservatively).
 * Errors are mapped at the boundary (`mapDbError`). The query threads
 * (query-threads.ts) route their statements through this too, their pool
 * as the read connection and the database as the lane.
 */
export function readFirst(reads: Pick<SqlClient, "execute">, lane: Queryable): Queryable {
  const viaReads = queryableOf(
    (sql, args) => whenFree(() => reads.execute({ sql, args: args ?? [] }), undefined),
    () => Promise.reject(new Error("scripts run through the lane")),
  );
  const pick = <R>(sql: string, onReads: () => Promise<R>, onLane: () => Promise<R>): Promise<R> => {
    if (!isRead(sql)) return onLane();
    return onReads().catch((err: unknown) => (refusedAsWrite(err) ? onLane() : Promise.reject(err)));
  };
  return {
    execute: (sql, args) => pick(sql, () => viaReads.execute(sql, args), () => lane.execute(sql, args)),
    all: (sql, args) => pick(sql, () => viaReads.all(sql, args), () => lane.all(sql, args)),
    get: (sql, args) => pick(sql, () => viaReads.get(sql, args), () => lane.get(sql, args)),
    script: lane.script,
  };
}

const STARTS_SELECT = /^\s*SELECT\b/i;
const STARTS_WITH = /^\s*WITH\b/i;
const NAMES_WRITE = /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i;

function isRead(sql: string): boolean {
  return STARTS_SELECT.test(sql) || (STARTS_WITH.test(sql) && !NAMES_WRITE.test(sql));
}

function refusedAsWrite(err: unknown): boolean {
  const cause = err instanceof AppError ? err.cause : err;
  return cause instanceof LibsqlError && /SQLITE_READONLY/.test(`${cause.code} ${cause.message}`);
}

function isBusy(err: unknown): boolean {
  return err instanceof LibsqlError && /SQLITE_BUSY|database is locked/.test(`${err.code} ${err.message}`);
}

/**
 * Runs `work`, and while SQLite answers busy, again after a short sleep
 * (1, 2, 4, 8 ms, …) for BUSY_WAIT_MS in all; meanwhile `turns` knows a
 * request waits. Only for statements that changed nothing when busy: an
 * autocommit statement, or a transaction's BEGIN.
 */
async function whenFree<T>(work: () => Promise<T>, turns: WriteTurns | undefined): Promise<T> {
  const start = performance.now();
  let pause = 1;
  let waited: (() => void) | undefined;
  try {
    for (;;) {
      try {
        return await work();
      } catch (err) {
        if (!isBusy(err) || performance.now() - start > BUSY_WAIT_MS) throw err;
      }
      waited ??= turns?.want();
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 8);
    }
  } finally {
    waited?.();
  }
}

async function runTransaction<T>(begin: () => Promise<SqlTransaction>, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let tx: SqlTransaction;
  try {
    tx = await begin();
  } catch (err) {
    throw mapDbError(err);
  }
  const q = queryableOf(
    (sql, args) => tx.execute({ sql, args: args ?? [] }),
    (sql) => tx.executeMultiple(sql),
  );
  try {
    const value = await fn(q);
    await tx.commit();
    return value;
  } catch (err) {
    await tx.rollback().catch(() => undefined);
    throw mapDbError(err);
  } finally {
    tx.close();
  }
}

function queryableOf(
  exec: (sql: string, args?: InArgs) => Promise<QueryResult>,
  script: (sql: string) => Promise<void>,
): Queryable {
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw mapDbError(err);
    }
  };
  const execute = (sql: string, args?: InArgs) => guard(() => exec(sql, args));
  return {
    execute,
    all: async <T>(sql: string, args?: InArgs) => (await execute(sql, args)).rows as unknown as T[],
    get: async <T>(sql: string, args?: InArgs) => (await execute(sql, args)).rows[0] as unknown as T | undefined,
    script: (sql) => guard(() => script(sql)),
  };
}

/**
 * Maps driver errors at the store boundary: busy is 503 `unavailable`, no
 * space 503 `storage_full` with `Retry-After`, a constraint 409, the rest 500.
 * The result never carries SQL text or driver messages; the original stays
 * on `cause` for logs.
 */
export function mapDbError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (isSpaceFailure(err)) return spaceRefusal(err);
  if (err instanceof LibsqlError) {
    const code = `${err.code} ${err.message}`;
    if (/SQLITE_BUSY|SQLITE_LOCKED|database is locked/.test(code)) return new AppError("unavailable", { cause: err });
    if (/SQLITE_CONSTRAINT/.test(code)) return new AppError("conflict", { cause: err });
    return new AppError("internal", { cause: err });
  }
  return err;
}

/**
 * Opens and migrates the database the server starts on; a failure says what
 * is wrong with it and what to do, not `internal error`: a damaged file, a
 * read-only file system (or no permission), no space left. Anything else is
 * thrown as it came.
 */
export async function openForStart(options: OpenOptions, migrateDb: (db: Db) => Promise<unknown>): Promise<Db> {
  let db: Db | undefined;
  try {
    db = await openDatabase(options);
    await migrateDb(db);
    return db;
  } catch (err) {
    db?.close();
    throw startError(err, options.url);
  }
}

/**
 * A failure while the server starts on the database at `url` (opening,
 * migrating, its first writes), said as what is wrong and what to do when
 * it is a damaged file, a file that cannot be written or opened, or a full
 * disk; any other failure as it came.
 */
export function startError(err: unknown, url: string): unknown {
  const problem = startProblem(err);
  if (!problem) return err;
  const where = kindOf(url) === "file" ? filePath(url) : url;
  return new Error(`cannot start on the database ${where}: ${problem}`, { cause: err });
}

/** The start failure in words with its remedy, or undefined when it is none of the known ones. */
function startProblem(err: unknown): string | undefined {
  const texts: string[] = [];
  for (let e: unknown = err; e && texts.length < 4; e = (e as { cause?: unknown }).cause) {
    const x = e as { code?: unknown; message?: unknown };
    texts.push(`${String(x.code ?? "")} ${String(x.message ?? "")}`);
  }
  const all = texts.join(" ");
  if (/SQLITE_CORRUPT|SQLITE_NOTADB|malformed|not a database/i.test(all)) {
    return "the file is damaged (not a database, or truncated); restore it from a backup, or move it aside to start on an empty one";
  }
  if (/SQLITE_READONLY|EROFS|EACCES|EPERM|read-only|readonly/i.test(all)) {
    return "it cannot be written (a read-only file system, or no permission); serve it from a writable place or fix its permissions";
  }
  if (/SQLITE_CANTOPEN|ConnectionFailed|unable to open/i.test(all)) {
    return "it cannot be opened or created (a read-only file system, a missing folder, or no permission); serve it from a writable place or fix its permissions";
  }
  if (isSpaceFailure(err)) return "no space is left on its disk; free some space and start again";
  return undefined;
}
