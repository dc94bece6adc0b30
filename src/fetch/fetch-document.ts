/**
 * Fetches one document over http(s) without letting the URL reach what the
 * server itself can reach: every hop's host is resolved and checked before a
 * connection is made (`destination.ts`), the socket connects to the checked
 * address only, redirects are followed by hand and checked the same way,
 * and time and bytes are bounded.
 */
import http from "node:http";
import type { IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupAddress } from "node:dns";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { AppError } from "../errors.js";
import { PKS_VERSION } from "../version.js";
import type { AllowList } from "./allow-list.js";
import { checkDestination, pinnedLookup, systemResolver } from "./destination.js";
import type { Resolver } from "./destination.js";
import { parseFetchUrl, socketHost } from "./fetch-url.js";

/** 24 MiB, the largest ingest call: a document past it is not read. */
export const MAX_DOCUMENT_BYTES = 25_165_824;
/** Redirects followed; one more fails the fetch. */
export const MAX_REDIRECTS = 5;
/** The whole fetch, redirects included (`PKS_FETCH_TIMEOUT_MS`). */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
/** Each connection, DNS excluded. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** How a fetch is bounded and whom it may reach. */
export interface FetchOptions {
  /** Exceptions to the address policy (`PKS_FETCH_ALLOW`). */
  readonly allow: AllowList;
  /** The whole fetch, redirects and body included (default 30 s). */
  readonly timeoutMs?: number;
  /** Each connection (default 10 s, at most `timeoutMs`). */
  readonly connectTimeoutMs?: number;
  /** Most body bytes, after decoding (default 24 MiB). */
  readonly maxBytes?: number;
  /** Redirects followed (default 5). */
  readonly maxRedirects?: number;
  /** Host resolution (default: the system resolver); tests answer for made-up names. */
  readonly resolve?: Resolver;
  /** Stops the fetch (e.g. the task was cancelled). */
  readonly signal?: AbortSignal;
}

/** A fetched document. */
export interface FetchedDocument {
  /** The URL the bytes came from, after redirects. */
  readonly finalUrl: string;
  readonly bytes: Uint8Array;
  /** The response's media type (lower case, no parameters), when it sent one. */
  readonly contentType: string | undefined;
}

/**
 * GETs the URL and answers its body. Fails with a task-ready `AppError`:
 * `unsupported_url_scheme`, `fetch_refused` (an address outside the policy,
 * credentials in the URL), `too_many_redirects`, `document_too_large`, or
 * `fetch_failed` (DNS, connection, TLS, a non-2xx status, a timeout).
 */
export async function fetchDocument(rawUrl: string, options: FetchOptions): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const hop: Hop = {
    allow: options.allow,
    resolve: options.resolve ?? systemResolver,
    connectTimeoutMs: Math.min(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs),
    maxBytes: options.maxBytes ?? MAX_DOCUMENT_BYTES,
    signal,
  };
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let url = parseFetchUrl(rawUrl);
  let context = "";
  for (let redirects = 0; ; redirects++) {
    try {
      const answer = await fetchHop(url, context, hop);
      if ("body" in answer) return { finalUrl: url.href, bytes: answer.body, contentType: answer.contentType };
      if (redirects >= maxRedirects) throw new AppError("too_many_redirects", { message: `too many redirects (more than ${maxRedirects})` });
      context = ` (redirected from ${url.href})`;
      url = parseFetchUrl(answer.location, context);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (options.signal?.aborted) throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} was cancelled` });
      if (timeout.aborted) throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} timed out after ${seconds(timeoutMs)}` });
      throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} failed: ${describeNetworkError(err, hop)}`, cause: err });
    }
  }
}

interface Hop {
  readonly allow: AllowList;
  readonly resolve: Resolver;
  readonly connectTimeoutMs: number;
  readonly maxBytes: number;
  readonly signal: AbortSignal;
}

type HopAnswer = { body: Uint8Array; contentType: string | undefined } | { location: string };

/** One request: check the destination, connect to it, and read a body or a redirect. */
async function fetchHop(url: URL, context: string, hop: Hop): Promise<HopAnswer> {
  hop.signal.throwIfAborted();
  const addresses = await untilAborted(checkDestination(url, hop.allow, hop.resolve, context), hop.signal);
  const res = await openRequest(url, addresses, hop);
  const status = res.statusCode ?? 0;
  if (REDIRECTS.has(status)) {
    res.destroy();
    const location = res.headers.location;
    if (!location) throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} failed: HTTP ${status} without a Location` });
    return { location: resolveLocation(location, url, context) };
  }
  if (status < 200 || status > 299) {
    res.destroy();
    const text = res.statusMessage ? ` ${res.statusMessage}` : "";
    throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} failed: HTTP ${status}${text}` });
  }
  const body = await readBody(res, url, context, hop.maxBytes);
  return { body, contentType: mediaTypeOf(res.headers["content-type"]) };
}

/** The promise's outcome, or the signal's reason if it aborts first (a resolver has no signal of its own). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function resolveLocation(location: string, base: URL, context: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new AppError("fetch_failed", { message: `fetching ${base.href}${context} failed: the redirect's Location is not a URL` });
  }
}

/** Thrown when a socket does not connect in time. */
class ConnectTimeout extends Error {}

/** Sends the GET over a fresh agent whose socket can only reach the checked addresses. */
function openRequest(url: URL, addresses: readonly LookupAddress[], hop: Hop): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request({
      protocol: url.protocol,
      hostname: socketHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: {
        "user-agent": `pks/${PKS_VERSION} (document ingest)`,
        accept: "text/markdown, text/html;q=0.9, text/*;q=0.8, */*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
      },
      // A fresh agent: no pooled socket from another fetch, and `lookup` is this fetch's own.
      agent: false,
      lookup: pinnedLookup(addresses) as unknown as typeof import("node:dns").lookup,
      signal: hop.signal,
    });
    const timer = setTimeout(() => req.destroy(new ConnectTimeout()), hop.connectTimeoutMs);
    req.once("socket", (socket) => {
      if (!socket.connecting) clearTimeout(timer);
      else socket.once("connect", () => clearTimeout(timer));
    });
    req.once("response", (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

/**
 * Reads the body, decoded (gzip, deflate, br), and fails as soon as it
 * passes `maxBytes` — a declared length past it fails before any byte is
 * read; a body that streams past it is cut off there.
 */
async function readBody(res: IncomingMessage, url: URL, context: string, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new AppError("document_too_large", { message: `the document is larger than ${sizeWords(maxBytes)}` });
  const encoding = String(res.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const declared = Number(res.headers["content-length"]);
  if ((encoding === "identity" || encoding === "") && Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const stream = decoded(res, encoding, url, context);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      total += buffer.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(buffer);
    }
  } finally {
    res.destroy();
    if (stream !== res) stream.destroy();
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

function decoded(res: IncomingMessage, encoding: string, url: URL, context: string): Readable {
  const decoder =
    encoding === "identity" || encoding === ""
      ? undefined
      : encoding === "gzip" || encoding === "x-gzip"
        ? zlib.createGunzip()
        : encoding === "deflate"
          ? zlib.createInflate()
          : encoding === "br"
            ? zlib.createBrotliDecompress()
            : null;
  if (decoder === undefined) return res;
  if (decoder === null) {
    res.destroy();
    throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} failed: unsupported content encoding ${encoding}` });
  }
  res.once("error", (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** `text/markdown; charset=utf-8` → `text/markdown`; undefined for anything that is not a media type. */
function mediaTypeOf(header: string | undefined): string | undefined {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  return type && /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : undefined;
}

function describeNetworkError(err: unknown, hop: Hop): string {
  if (err instanceof ConnectTimeout) return `could not connect within ${seconds(hop.connectTimeoutMs)}`;
  const code = (err as { code?: string }).code;
  switch (code) {
    case "ECONNREFUSED":
      return "the connection was refused (ECONNREFUSED)";
    case "ECONNRESET":
      return "the connection was reset (ECONNRESET)";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `the host cannot be reached (${code})`;
    case "HPE_HEADER_OVERFLOW":
      return "the response headers are too large";
    case undefined:
      return err instanceof Error && err.message === "aborted" ? "the connection closed mid-response" : "the request failed";
    default:
      if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL")) return `TLS failed (${code})`;
      if (code.startsWith("HPE_")) return `the response is not valid HTTP (${code})`;
      return `the request failed (${code})`;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** `24 MiB` for the default cap; bytes for caps that are not whole MiB. */
function sizeWords(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes} bytes`;
}
