/**
 * One error type for the whole service. Every failure a caller can see is an
 * `AppError` with a stable snake_case `code`; the code fixes the HTTP status
 * and, for the spec's Errors table, the exact message text.
 */

/** The spec's Errors table plus the service's own codes, as data. */
export const ERROR_TABLE = {
  action_required: { status: 400, message: "action is required" },
  query_required_for_schema: { status: 400, message: "query is required when a schema is supplied" },
  invalid_request_body: { status: 400, message: "invalid request body" },
  project_required: {
    status: 400,
    message: "name the target project via the X-Project-Id header or projectId query",
  },
  record_schema_mismatch: { status: 400, message: "record does not match its schema" },
  invalid_schema_field: { status: 400, message: "schema field" },
  entity_not_category: {
    status: 400,
    message: "entity is not a category; its schema lives on its type entity",
  },
  invalid_cursor: { status: 400, message: "invalid cursor" },
  no_files: { status: 400, message: "this call carries no files" },
  chunk_not_stored: { status: 400, message: "chunk is not stored" },
  file_not_editable: { status: 400, message: "file is not editable" },
  invalid_input: { status: 400, message: "invalid input" },
  invalid_api_key: { status: 401, message: "invalid API key" },
  unauthorized: { status: 401, message: "unauthorized" },
  action_not_available: { status: 403, message: "action not available to an API key" },
  no_submit_type: {
    status: 403,
    message: "no artifact schema is bound for records here: start pks with --submit-type <schemaId> (or PKS_SUBMIT_TYPE)",
  },
  editor_access_required: { status: 403, message: "editor access required" },
  forbidden: { status: 403, message: "forbidden" },
  not_found: { status: 404, message: "not found" },
  unknown_action: { status: 404, message: "unknown action" },
  project_not_found: { status: 404, message: "project not found" },
  entity_not_found: { status: 404, message: "entity not found" },
  file_not_found: { status: 404, message: "file not found" },
  cell_not_found: { status: 404, message: "cell not found" },
  task_not_found: { status: 404, message: "task not found" },
  artifact_not_found: { status: 404, message: "artifact not found" },
  lease_not_found: { status: 404, message: "lease not found" },
  no_pending_schema_proposal: { status: 404, message: "no pending schema proposal" },
  category_proposal_not_found: { status: 404, message: "category proposal not found" },
  schema_not_found: { status: 404, message: "schema not found" },
  method_not_allowed: { status: 405, message: "method not allowed" },
  schema_moved: { status: 409, message: "schema moved to version" },
  category_proposal_settled: { status: 409, message: "category proposal already settled" },
  task_finished: { status: 409, message: "task already finished" },
  schema_change_empty: { status: 409, message: "the proposed schema change adds no field the schema lacks; reject it" },
  conflict: { status: 409, message: "conflict" },
  headers_too_large: { status: 431, message: "request headers too large" },
  bad_request: { status: 400, message: "bad request" },
  request_too_large: {
    status: 413,
    message: "this request was too large to read; send fewer files at a time",
  },
  quota_exceeded: { status: 413, message: "project storage quota exceeded; remove files or raise the quota" },
  record_too_large: { status: 413, message: "the record is larger than 64 KiB" },
  result_too_large: { status: 413, message: "the answer is larger than one MCP result may hold" },
  // document_ingest task errors: the message carries the URL or path and the reason.
  unsupported_url_scheme: { status: 400, message: "only http and https URLs can be fetched" },
  document_refused: { status: 400, message: "the document was refused" },
  fetch_refused: { status: 403, message: "refused to fetch" },
  document_too_large: { status: 413, message: "the document is larger than 24 MiB" },
  fetch_failed: { status: 502, message: "the document could not be fetched" },
  too_many_redirects: { status: 502, message: "too many redirects" },
  rate_limited: { status: 429, message: "rate limit exceeded" },
  internal: { status: 500, message: "internal error" },
  unavailable: { status: 503, message: "service unavailable" },
  storage_full: { status: 503, message: "the server's disk is full: writes are refused until space is freed; reads go on" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** The JSON body of every non-2xx answer. */
export interface ErrorEnvelope {
  error: { status: number; code: ErrorCode; message: string };
  [extra: string]: unknown;
}

export interface AppErrorOptions {
  /** Overrides the table's message (for messages that carry a value). */
  message?: string;
  /** Extra top-level envelope fields the spec names (e.g. `categorySchema`). */
  extra?: Record<string, unknown>;
  /** Response headers the error implies (e.g. `Retry-After`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The single error class of the service. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_TABLE[code].message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_TABLE[code].status;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  /** The wire envelope: `{error: {status, code, message}, ...extra}`. */
  toEnvelope(): ErrorEnvelope {
    return { error: { status: this.status, code: this.code, message: this.message }, ...this.extra };
  }
}

/** Builds the 400 for a bad type-schema field: `schema field "<name>": <why>`. */
export function schemaFieldError(name: string, why: string, extra?: Record<string, unknown>): AppError {
  return new AppError("invalid_schema_field", { message: `schema field "${name}": ${why}`, extra });
}

/** Builds the 409 for a stale schema edit, carrying the schema to restart from. */
export function schemaMovedError(version: number, categorySchema: unknown): AppError {
  return new AppError("schema_moved", {
    message: `schema moved to version ${version} since the edit began`,
    extra: { categorySchema },
  });
}

/**
 * Turns anything thrown into an `AppError`. Unknown failures become a bare
 * 500 whose message never carries the original text (no SQL, no paths).
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError("internal", { cause: err });
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
