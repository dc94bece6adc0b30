/**
 * Fuzzed requests from the declarations: for a REST endpoint, its path
 * parameters, query keys and body schema (`z.toJSONSchema` of its input);
 * for an action, `POST /v1/api/actions` bodies and MCP `tools/call`
 * arguments from its input schema. Each request is valid-ish, then mostly
 * carries one hostile change; its `label` says which.
 */
import fc from "fast-check";
import { INGEST_BODY_LIMIT, JSON_BODY_LIMIT } from "../../../src/core/endpoint.js";
import type { AnyEndpoint } from "../../../src/core/endpoint.js";
import type { AnyAction } from "../../../src/core/action.js";
import type { TestWorld } from "../test-app.js";
import type { KnownIds } from "./fuzz-world.js";
import { arbitraryOf, inputJsonSchema, propertyOf } from "./json-schema-arbitrary.js";
import { jsonText, mutateOne, plainValue, wholeBody } from "./hostile-values.js";
import { authArb, chunkIdOf, fieldHints, hostileUrlValue, pathParamArb, percentEncode, queryValueArb } from "./world-hints.js";

/** One HTTP request to send, with what was fuzzed in it. */
export interface FuzzRequest {
  label: string;
  method: string;
  /** Path and query string, already encoded. */
  url: string;
  headers: Record<string, string>;
  /** Made when sent (an oversized body is large). */
  body?: () => string | Uint8Array;
}

/** One MCP `tools/call`. */
export interface FuzzToolCall {
  label: string;
  name: string;
  arguments: Record<string, unknown>;
}

interface Body {
  label: string;
  make?: () => string | Uint8Array;
}

/** A JSON body: valid from the schema, with one field mutated, or whole-body hostile. */
function jsonBodyArb(valid: fc.Arbitrary<unknown>, limit: number): fc.Arbitrary<Body> {
  return valid.chain((v) => {
    const text = jsonText(v);
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant({ label: "valid body", make: () => text }) },
      { weight: 6, arbitrary: mutateOne(v).map((m) => ({ label: m.label, make: () => jsonText(m.value) })) },
      { weight: 3, arbitrary: wholeBody(text, limit) },
    );
  });
}

/** A bytes body (chunk upload): random bytes, empty, or past the limit; the chunk id may match them. */
function bytesBodyArb(limit: number): fc.Arbitrary<Body & { bytes?: Uint8Array }> {
  return fc.oneof(
    { weight: 40, arbitrary: fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ label: `${bytes.length} bytes`, bytes, make: () => bytes })) },
    { weight: 1, arbitrary: fc.constant({ label: `${limit + 1} bytes (limit ${limit})`, make: () => new Uint8Array(limit + 1) }) },
  );
}

const ODD_METHODS = ["PATCH", "DELETE", "OPTIONS", "GET", "POST", "PUT"];
const CONTENT_TYPES = ["application/json", "application/json", "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16"];

/** Requests for one endpoint, drawn from its declaration and the world's ids. */
export function endpointRequests(endpoint: AnyEndpoint, w: TestWorld, ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const schema = inputJsonSchema(endpoint.input);
  const names = w.app.service.catalog.list().map((a) => a.name);
  // The generic dispatch endpoint's `action` and `input` are opaque (`{}`): name a real action with a plausible input.
  const hints = { ...fieldHints(ids), action: fc.constantFrom(...names, "nope"), input: fc.constantFrom({}, { query: "ledger" }, { task: "fix the ledger" }) };
  const paramNames = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const queryKeys = Object.keys(propertyOf(schema, "query").properties ?? {});
  const kind = endpoint.body ?? (endpoint.method === "GET" ? "none" : "json");
  const limit = endpoint.bodyLimit?.bytes ?? (kind === "bytes" ? INGEST_BODY_LIMIT : JSON_BODY_LIMIT);
  const params = fc.tuple(...paramNames.map((name) => pathParamArb(name, w, ids)));
  const query = queryArb(queryKeys, ids);
  const body: fc.Arbitrary<Body & { bytes?: Uint8Array }> =
    kind === "json" ? jsonBodyArb(arbitraryOf(propertyOf(schema, "body"), hints), limit) : kind === "bytes" ? bytesBodyArb(limit) : fc.constant({ label: "" });
  const method = fc.oneof({ weight: 19, arbitrary: fc.constant(endpoint.method as string) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS.filter((m) => m !== endpoint.method)) });
  const project = fc.oneof(fc.constant(w.projectId), fc.constant(w.otherProjectId), hostileUrlValue, fc.constant(undefined));
  return fc.record({ params, query, body, method, auth: authArb(w), contentType: fc.constantFrom(...CONTENT_TYPES), project, matchChunk: fc.boolean() }).map((r) => {
    let i = 0;
    const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
      const p = r.params[i++]!;
      // A chunk upload names its bytes' own id half the time, so some uploads are valid.
      if (name === "chunkId" && r.matchChunk && r.body.bytes) return percentEncode(chunkIdOf(r.body.bytes));
      return p.raw;
    });
    const hostileParams = paramNames.filter((_, j) => r.params[j]!.hostile);
    const headers: Record<string, string> = { host: "127.0.0.1:8787" };
    if (r.auth.header !== undefined) headers.authorization = r.auth.header;
    if (endpoint.project === "header" && r.project !== undefined) headers["x-project-id"] = r.project;
    if (r.body.make) headers["content-type"] = kind === "bytes" ? "application/octet-stream" : r.contentType;
    const withBody = r.method !== "GET" && r.method !== "OPTIONS";
    const label = [
      r.method !== endpoint.method ? `method ${r.method}` : "",
      r.auth.who !== "owner" ? `as ${r.auth.who}` : "",
      hostileParams.length > 0 ? `params ${hostileParams.join(",")} fuzzed` : "",
      r.query.label,
      withBody ? r.body.label : "",
    ].filter(Boolean);
    return { label: label.join("; ") || "valid", method: r.method, url: `${path}${r.query.text}`, headers, body: withBody ? r.body.make : undefined };
  });
}

/** A query string from the schema's keys: valid-ish or hostile values, odd keys now and then. */
function queryArb(keys: string[], ids: KnownIds): fc.Arbitrary<{ text: string; label: string }> {
  if (keys.length === 0) {
    return fc.oneof({ weight: 4, arbitrary: fc.constant({ text: "", label: "" }) }, { weight: 1, arbitrary: hostileUrlValue.map((v) => ({ text: `?x=${v}`, label: "stray query x" })) });
  }
  const entry = (key: string) =>
    fc.oneof(
      { weight: 3, arbitrary: queryValueArb(key, ids).map((v) => ({ part: `${key}=${percentEncode(v)}`, hostile: false })) },
      { weight: 2, arbitrary: hostileUrlValue.map((v) => ({ part: `${key}=${v}`, hostile: true })) },
    );
  const odd = fc.constantFrom("__proto__=1", "limit=1&limit=x", "limit[]=1", "cursor", "=", "&&", "a=%", "constructor=x");
  return fc
    .tuple(fc.subarray(keys), fc.option(odd, { freq: 6 }))
    .chain(([chosen, extra]) =>
      fc.tuple(...chosen.map(entry)).map((parts) => {
        const all = parts.map((p) => p.part).concat(extra ? [extra] : []);
        const fuzzed = chosen.filter((_, i) => parts[i]!.hostile);
        const label = [fuzzed.length > 0 ? `query ${fuzzed.join(",")} fuzzed` : "", extra ? `query + ${extra}` : ""].filter(Boolean).join("; ");
        return { text: all.length > 0 ? `?${all.join("&")}` : "", label };
      }),
    );
}

/** `POST /v1/api/actions` bodies for one action: `{action, input}` valid-ish, then mutated. */
export function dispatchRequests(action: AnyAction, w: TestWorld, ids: KnownIds): fc.Arbitrary<FuzzRequest> {
  const input = arbitraryOf(inputJsonSchema(action.input), fieldHints(ids));
  const body = jsonBodyArb(input.map((i) => ({ action: action.name, input: i })), JSON_BODY_LIMIT);
  const project = fc.oneof({ weight: 8, arbitrary: fc.constant(w.projectId) }, { weight: 1, arbitrary: fc.constant(w.otherProjectId) }, { weight: 1, arbitrary: fc.constantFrom("", "nope", "%ED%A0%80", "\u00ff\u00fe", "prj_", " ") });
  // The project rides the X-Project-Id header, or now and then the projectId query parameter.
  return fc.record({ body, auth: authArb(w), project, inQuery: fc.nat({ max: 9 }).map((n) => n === 0) }).map((r) => {
    const headers: Record<string, string> = { host: "127.0.0.1:8787", "content-type": "application/json" };
    if (r.auth.header !== undefined) headers.authorization = r.auth.header;
    if (r.project && !r.inQuery) headers["x-project-id"] = r.project;
    const query = r.project && r.inQuery ? `?projectId=${percentEncode(r.project)}` : "";
    const where = r.inQuery ? "projectId query" : "project";
    const label = [r.auth.who !== "owner" ? `as ${r.auth.who}` : "", r.project !== w.projectId || r.inQuery ? `${where} ${JSON.stringify(r.project)}` : "", r.body.label];
    return { label: label.filter(Boolean).join("; "), method: "POST", url: `/v1/api/actions${query}`, headers, body: r.body.make };
  });
}

/** MCP `tools/call` requests for one action: arguments valid-ish, then one field mutated; now and then an unknown name. */
export function toolCalls(action: AnyAction, ids: KnownIds): fc.Arbitrary<FuzzToolCall> {
  const input = arbitraryOf(inputJsonSchema(action.input), fieldHints(ids));
  const name = fc.oneof({ weight: 19, arbitrary: fc.constant(action.name) }, { weight: 1, arbitrary: fc.constantFrom("", "nope", "__proto__", `${action.name} `) });
  const args = input.chain((v) =>
    fc.oneof({ weight: 1, arbitrary: fc.constant({ value: v as unknown, label: "valid arguments" }) }, { weight: 6, arbitrary: mutateOne(v) }),
  );
  return fc.tuple(name, args).map(([n, a]) => {
    const value = plainValue(a.value);
    const record = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { input: value };
    return { label: `${n !== action.name ? `name ${JSON.stringify(n)}; ` : ""}${a.label}`, name: n, arguments: record };
  });
}
