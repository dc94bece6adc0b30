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

/** Something that hears every record, whatever the output is. */
export type LogListener = (record: LogRecord) => void;

/** Where records go besides the listeners: `stderr`, or nowhere (`silent`). */
export type LogOutput = "stderr" | "silent";

const listeners = new Set<LogListener>();
let output: LogOutput = "stderr";

/**
 * Sets where this thread's records go besides the listeners. The process's
 * choice is a setting (`PKS_LOG`, parsed in src/config.ts) and `createApp`
 * applies it; a thread that hands its records to another one (the writer
 * thread) is silent, so each record is written once.
 */
export function setLogOutput(to: LogOutput): void {
  output = to;
}

function write(level: LogLevel, msg: string, fields?: Fields): void {
  if (output === "silent" && listeners.size === 0) return;
  const line: Fields = { t: new Date().toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields ?? {})) line[k] = v instanceof Error ? describeError(v) : v;
  emit(line);
}

function emit(line: Fields): void {
  for (const listener of listeners) {
    try {
      listener(line as unknown as LogRecord);
    } catch {
      // A listener's failure is its own: logging goes on for everyone else.
    }
  }
  if (output === "stderr") process.stderr.write(`${JSON.stringify(line)}\n`);
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
