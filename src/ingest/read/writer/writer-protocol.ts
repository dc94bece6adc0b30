/** The messages between the serving thread and the writer thread (see writer-host.ts). */
import type { WriteRequest } from "../../../core/tools.js";
import { AppError } from "../../../errors.js";
import type { ErrorCode } from "../../../errors.js";
import type { LogRecord } from "../../../logger.js";
import type { ReaderLimits } from "../pool/reader-pool.js";

/** What the writer thread starts with: where the store is, the readers' limits, the shared write turns. */
export interface WriterData {
  readonly url: string;
  readonly authToken: string | undefined;
  readonly reading: ReaderLimits;
  readonly readersUrl: string | undefined;
  /** The free-space floor in MB (`PKS_MIN_FREE_MB`): below it no file is claimed. */
  readonly minFreeMb: number;
  /** The serving connection's WriteTurns memory. */
  readonly turns: SharedArrayBuffer;
}

export type WriterRequest =
  | { readonly type: "kick" }
  | { readonly type: "idle"; readonly id: number }
  | { readonly type: "write"; readonly id: number; readonly request: WriteRequest }
  | { readonly type: "stop" };

export type WriterAnswer =
  | { readonly type: "started" }
  | { readonly type: "start-failed"; readonly message: string }
  | { readonly type: "idle"; readonly id: number }
  | ({ readonly type: "written"; readonly id: number } & ({ readonly value: unknown } | { readonly error: SentError }))
  | { readonly type: "stopped" }
  | { readonly type: "log"; readonly record: LogRecord };

/**
 * An `AppError` as it crosses between threads: its code, message, extra
 * fields and headers (a full disk's `Retry-After`), and what caused it in
 * words, for the log. A failure that was not an `AppError` crosses as
 * `internal`, as the service would answer it.
 */
export interface SentError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly cause: { readonly name: string; readonly message: string; readonly code?: string } | undefined;
}

export function sendError(err: unknown): SentError {
  const e = err instanceof AppError ? err : new AppError("internal", { cause: err });
  const c = e.cause as { name?: unknown; message?: unknown; code?: unknown } | undefined;
  const cause = c && typeof c === "object" ? { name: String(c.name ?? "Error"), message: String(c.message ?? ""), ...(c.code ? { code: String(c.code) } : {}) } : undefined;
  return { code: e.code, message: e.message, extra: e.extra, headers: e.headers, cause };
}

/** The `AppError` a thread sent, with its cause as an `Error` of the same name, message and code. */
export function receivedError(sent: SentError): AppError {
  const cause = sent.cause && Object.assign(new Error(sent.cause.message), { name: sent.cause.name, code: sent.cause.code });
  return new AppError(sent.code, { message: sent.message, extra: sent.extra, headers: sent.headers, cause });
}
