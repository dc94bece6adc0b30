/**
 * Structured logs as JSON lines on stderr. Stdout is reserved: over stdio it
 * carries JSON-RPC only.
 */
type Fields = Record<string, unknown>;

/** The level of a log record. */
export type LogLevel = "info" | "warn" | "error";

/**
 * One log record as written: `t`, `level`, `msg` and the call's fields, an
 * `Error` field already turned into `{name, message, cause?}`. A record
 * about one project carries its `projectId` among the fields.
 */
export interface LogRecord {
  readonly t: string;
  readonly level: LogLevel;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** Something that hears every record, whatever `PKS_LOG` says about stderr. */
export type LogListener = (record: LogRecord) => void;

const listeners = new Set<LogListener>();

function write(level: LogLevel, msg: string, fields?: Fields): void {
  if (process.env.PKS_LOG === "silent" && listeners.size === 0) return;
  const line: Fields = { t: new Date().toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields ?? {})) line[k] = v instanceof Error ? describeError(v) : v;
  emit(line);
}

function emit(line: Fields): void {
  const silent = process.env.PKS_LOG === "silent";
  for (const listener of listeners) {
    try {
      listener(line as unknown as LogRecord);
    } catch {
      // A listener's failure is its own: logging goes on for everyone else.
    }
  }
  if (!silent) process.stderr.write(`${JSON.stringify(line)}\n`);
}

function describeError(e: Error): Fields {
  const cause = (e as { cause?: unknown }).cause;
  return { name: e.name, message: e.message, ...(cause instanceof Error ? { cause: describeError(cause) } : {}) };
}

export const log = {
  info: (msg: string, fields?: Fields) => write("info", msg, fields),
  warn: (msg: string, fields?: Fields) => write("warn", msg, fields),
  error: (msg: string, fields?: Fields) => write("error", msg, fields),
};

/**
 * Writes a record made in another thread of this process (the writer
 * thread posts its records here) as if it were written here: listeners
 * hear it and stderr gets it, once.
 */
export function relayLog(record: LogRecord): void {
  emit(record as unknown as Fields);
}

/**
 * Hears every log record from now on, in the order written, until the
 * returned function is called. This is how wire code that may not import
 * a domain observes what the domains report (an MCP session forwards the
 * records of its project as `notifications/message`). Listeners run
 * synchronously inside the `log` call, so they must only hand the record
 * on; one that throws is skipped and never breaks the caller.
 */
export function onLog(listener: LogListener): () => void {
  const own = (record: LogRecord) => listener(record);
  listeners.add(own);
  return () => {
    listeners.delete(own);
  };
}
