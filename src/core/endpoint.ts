import type { z } from "zod";
import type { ErrorCode } from "../errors.js";
import type { Db } from "../store/db.js";
import type { KeyTier } from "../store/access/api-keys.js";
import type { AccessLevel } from "../store/access/memberships.js";
import type { Principal } from "../access/principal.js";
import type { Scope } from "./scope.js";
import type { Tools } from "./tools.js";

/** How a caller proves itself to an operation. */
export type Credential = "key" | "session";

/** What a running operation is given: the store, its scope and the tools. */
export interface RunContext {
  readonly db: Db;
  readonly principal: Principal;
  /** The resolved project; absent only for operations with `project: "none"`. */
  readonly scope: Scope;
  readonly tools: Tools;
  /** The calling client's model, when it lends one (MCP sampling); never over REST. */
  readonly sampler?: Sampler | undefined;
}

/**
 * A language model the caller's client lends for one request (MCP
 * `sampling/createMessage`): a prompt in, the model's text out. Only an MCP
 * client that declared the `sampling` capability provides one; what it
 * answers is the client's, so every use checks it before trusting it.
 */
export interface Sampler {
  /** Asks once; rejects on a timeout, a refusal or a transport failure. */
  complete(request: { system: string; prompt: string; maxTokens: number; timeoutMs: number }): Promise<string>;
}

/**
 * What every operation declares, whatever reaches it (REST route, action
 * dispatch, MCP tool): who may call it and with what, and the handler. The
 * one pipeline (`Service`) runs every operation the same way:
 * authenticate → resolve scope → tier → level → validate → run → map errors.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Stable id: the action name, or `<resource>.<verb>` for a REST endpoint. */
  readonly name: string;
  /** Input schema over the whole raw input; validated once, before `run`. */
  readonly input: I;
  /** Output schema of the answer `run` returns (rows of a page for paged reads). */
  readonly output: O;
  /** Lowest project level that may call it; `none` when the operation names no project. */
  readonly access: AccessLevel | "none";
  /** Key tiers that may call it (default: `standard` only). */
  readonly tiers?: readonly KeyTier[];
  /** Credentials it accepts (default: an API key). */
  readonly auth?: readonly Credential[];
  /** The 403 a caller below `access` gets (default `editor_access_required`). */
  readonly denied?: ErrorCode;
  run(input: z.output<I>, ctx: RunContext): Promise<unknown>;
}

/** How an endpoint's answer goes on the wire. */
export type Reply =
  /** the value as JSON (status 200 unless `status` says otherwise) */
  | "json"
  /** a `Page`: its rows as a bare array, `X-Next-Cursor` and `X-Total-Count` as headers */
  | "page";

/** Where an endpoint's project comes from. */
export type ProjectFrom =
  /** the `{projectId}` path parameter */
  | "path"
  /** the `X-Project-Id` header or `projectId` query, else the key's bound project */
  | "header"
  /** the endpoint names no project */
  | "none";

/**
 * A REST endpoint as data. The raw input the pipeline validates is
 * `{params, query, body}`: path parameters, query parameters (strings) and
 * the body (parsed JSON, raw bytes, or absent), so one zod schema checks all
 * of it and the handler gets typed values.
 */
export interface Endpoint<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends Operation<I, O> {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  /** Hono-style path, e.g. `/v1/projects/:projectId/cells`. */
  readonly path: string;
  readonly summary: string;
  readonly project: ProjectFrom;
  /** What the body holds (default `none` for GET, `json` otherwise). */
  readonly body?: "json" | "bytes" | "none";
  /** Largest body in bytes (default 1 MiB) and the error past it (default 400 `invalid request body`). */
  readonly bodyLimit?: { bytes: number; error: ErrorCode };
  /**
   * A JSON body of more bytes than this reaches the input unparsed, as a
   * `RawJsonBody` (raw-body.ts), for the handler to parse and check off
   * the serving thread; the body schema takes it through `parsedOrRaw`.
   */
  readonly rawJsonAbove?: number;
  readonly reply?: Reply;
  /** Success status (default 200). */
  readonly status?: 200 | 201;
}

/** Identity helper that keeps the input type flowing into `run`. */
export function defineEndpoint<I extends z.ZodType, O extends z.ZodType>(endpoint: Endpoint<I, O>): Endpoint<I, O> {
  return endpoint;
}

// A list holds endpoints of many input and output types.
export type AnyEndpoint = Endpoint<z.ZodType, z.ZodType>;

/** 1 MiB: the JSON request body limit. */
export const JSON_BODY_LIMIT = 1_048_576;
/** 24 MiB: the largest ingest call or chunk, counted before decoding. */
export const INGEST_BODY_LIMIT = 25_165_824;
