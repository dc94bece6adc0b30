/**
 * Structured logs as JSON lines on stderr. Stdout is reserved: over stdio it
 * carries JSON-RPC only.
 */
type Fields = Record<string, unknown>;

function write(level: "info" | "warn" | "error", msg: string, fields?: Fields): void {
  if (process.env.PKS_LOG === "silent") return;
  const line: Fields = { t: new Date().toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields ?? {})) line[k] = v instanceof Error ? describeError(v) : v;
  process.stderr.write(`${JSON.stringify(line)}\n`);
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
