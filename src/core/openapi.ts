import { ERROR_TABLE } from "../errors.js";
import type { AnyAction } from "./action.js";
import { jsonSchemaOf } from "./catalog.js";
import { JSON_BODY_LIMIT } from "./endpoint.js";
import type { AnyEndpoint, Credential } from "./endpoint.js";

/** A JSON object of the OpenAPI document (plain data, serialized as is). */
export type OpenApiObject = Record<string, unknown>;

type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * A route a transport serves outside the endpoint list (`/mcp`, the
 * document itself), with its OpenAPI operation written by that transport.
 */
export interface WireRoute {
  readonly method: Method;
  /** OpenAPI form: `/v1/openapi.json`, `{param}` for parameters. */
  readonly path: string;
  readonly operation: OpenApiObject;
}

export interface OpenApiSource {
  /** Every REST endpoint, as the HTTP app binds them. */
  readonly endpoints: readonly AnyEndpoint[];
  /** The action catalog: the dispatch endpoint's body is one of their calls. */
  readonly actions: readonly AnyAction[];
  /** The served version (`info.version`). */
  readonly version: string;
  /** Routes served beside the endpoints. */
  readonly routes?: readonly WireRoute[];
}

/** The name of the endpoint whose body is one action's call (`POST /v1/api/actions`). */
const DISPATCH = "actions.dispatch";

/** HTTP statuses with a named error response under `components.responses`. */
const ERROR_RESPONSES = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  413: "TooLarge",
  429: "RateLimited",
  503: "Unavailable",
} as const;
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/**
 * `{status: $ref}` for each named error status, plus `default`: every error
 * answer points at the one error envelope.
 */
export function errorResponseRefs(statuses: readonly ErrorStatus[]): OpenApiObject {
  const out: OpenApiObject = {};
  for (const s of [...statuses].sort()) out[String(s)] = { $ref: `#/components/responses/${ERROR_RESPONSES[s]}` };
  out.default = { $ref: "#/components/responses/Error" };
  return out;
}

/** `/v1/projects/:projectId/cells` → `/v1/projects/{projectId}/cells`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

/**
 * The OpenAPI 3.1 description of what pks serves, generated from the same
 * endpoint list and action catalog the transports run, so it cannot drift
 * from the routes. Schemas come from the operations' zod schemas through
 * `z.toJSONSchema` (`io: "input"` for what a caller sends — query values
 * before their transforms — and `io: "output"` for answers; a part zod cannot
 * express, such as a refinement's rule, becomes `{}`, i.e. any value, and the
 * server's 400 names the rule). The dispatch endpoint's body is a `oneOf`
 * over the actions' calls, discriminated by `action`. A route described
 * twice is a bug and throws.
 */
export function openApiDocument(source: OpenApiSource): OpenApiObject {
  const components = baseComponents();
  const schemas = components.schemas as Record<string, OpenApiObject>;
  const paths: Record<string, Record<string, OpenApiObject>> = {};
  const add = (method: Method, path: string, operation: OpenApiObject) => {
    const item = (paths[path] ??= {});
    const key = method.toLowerCase();
    if (item[key]) throw new Error(`${method} ${path} is described twice`);
    item[key] = operation;
  };
  for (const endpoint of source.endpoints) {
    const dispatch = endpoint.name === DISPATCH && source.actions.length > 0 ? actionSchemas(source.actions, schemas) : undefined;
    add(endpoint.method, openApiPath(endpoint.path), endpointOperation(endpoint, schemas, dispatch));
  }
  for (const route of source.routes ?? []) add(route.method, route.path, route.operation);
  return {
    openapi: "3.1.0",
    info: {
      title: "pks",
      version: source.version,
      description:
        "Project knowledge service: REST reads and writes over a project's knowledge graph, and the action catalog " +
        "(also served as MCP tools at /mcp). Every error answer is the JSON envelope `{error: {status, code, message}}`.",
    },
    paths,
    components,
  };
}

function endpointOperation(e: AnyEndpoint, schemas: Record<string, OpenApiObject>, dispatch: DispatchSchemas | undefined): OpenApiObject {
  const root = hoist(jsonSchemaOf(e.input, "input"), `${e.name}.input`, schemas);
  const input = "$ref" in root ? schemas[`${e.name}.input`]! : root;
  const parts = (input.properties ?? {}) as Record<string, OpenApiObject>;
  const auth = e.auth ?? ["key"];
  const tiers = e.tiers ?? ["standard"];
  const operation: OpenApiObject = {
    operationId: e.name,
    summary: e.summary,
    description: `Access: ${e.access === "none" ? "any caller with a valid credential" : e.access}. Key tiers: ${tiers.join(", ")}. Credentials: ${auth.map(credentialName).join(" or ")}.`,
    tags: [tagOf(e.path)],
    security: auth.map((a) => ({ [securityName(a)]: [] })),
    "x-pks-access": e.access,
    "x-pks-tiers": [...tiers],
  };
  const parameters = [...pathParameters(e.path, parts.params), ...queryParameters(parts.query), ...projectParameters(e, parts.query)];
  if (parameters.length > 0) operation.parameters = parameters;
  const body = requestBody(e, dispatch?.call ?? parts.body ?? {});
  if (body) operation.requestBody = body;
  const output = dispatch?.answer ?? hoist(jsonSchemaOf(e.output, "output"), `${e.name}.output`, schemas);
  operation.responses = { [String(e.status ?? 200)]: successResponse(e, output), ...errorResponseRefs(errorStatuses(e)) };
  return operation;
}

function credentialName(c: Credential): string {
  return c === "key" ? "API key" : "session token";
}

function securityName(c: Credential): string {
  return c === "key" ? "apiKey" : "session";
}

/** `/v1/projects/{projectId}/cells` → `cells`; `/v1/api/actions` → `actions`. */
function tagOf(path: string): string {
  const words = path.split("/").filter((s) => s && s !== "v1" && s !== "projects" && s !== "api" && !s.startsWith(":"));
  return words[0] ?? "service";
}

function pathParameters(path: string, params: OpenApiObject | undefined): OpenApiObject[] {
  const props = (params?.properties ?? {}) as Record<string, OpenApiObject>;
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: "path", required: true, schema: props[name!] ?? { type: "string" } }));
}

function queryParameters(query: OpenApiObject | undefined): OpenApiObject[] {
  const props = (query?.properties ?? {}) as Record<string, OpenApiObject>;
  const required = new Set((query?.required ?? []) as string[]);
  return Object.entries(props).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    schema,
  }));
}

/** `X-Project-Id` (or `?projectId=`) for endpoints whose project is named that way. */
function projectParameters(e: AnyEndpoint, query: OpenApiObject | undefined): OpenApiObject[] {
  if (e.project !== "header" && e.name !== DISPATCH) return [];
  const description = "The target project; not needed with a key bound to one.";
  const out: OpenApiObject[] = [{ name: "X-Project-Id", in: "header", required: false, description, schema: { type: "string" } }];
  if (!(query?.properties as OpenApiObject | undefined)?.projectId) {
    out.push({ name: "projectId", in: "query", required: false, description: `${description} Same as X-Project-Id.`, schema: { type: "string" } });
  }
  return out;
}

function requestBody(e: AnyEndpoint, schema: OpenApiObject): OpenApiObject | undefined {
  const kind = e.body ?? (e.method === "GET" ? "none" : "json");
  if (kind === "none") return undefined;
  const limit = e.bodyLimit?.bytes ?? JSON_BODY_LIMIT;
  if (kind === "bytes") {
    return {
      required: true,
      description: `Raw bytes, at most ${limit} bytes.`,
      content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
    };
  }
  const object = "$ref" in schema || "oneOf" in schema || schema.type ? schema : { type: "object", ...schema };
  return {
    required: true,
    description: `A JSON object, at most ${limit} bytes.`,
    content: { "application/json": { schema: object } },
  };
}

function successResponse(e: AnyEndpoint, schema: OpenApiObject): OpenApiObject {
  const content = { "application/json": { schema } };
  if (e.reply !== "page") return { description: e.summary, content };
  return {
    description: `${e.summary}: one page of rows; the next page's cursor is in X-Next-Cursor.`,
    headers: {
      "X-Next-Cursor": { $ref: "#/components/headers/XNextCursor" },
      "X-Total-Count": { $ref: "#/components/headers/XTotalCount" },
    },
    content,
  };
}

/** The error statuses an endpoint can answer besides `default`. */
function errorStatuses(e: AnyEndpoint): ErrorStatus[] {
  const out: ErrorStatus[] = [400, 401, 403, 429, 503];
  if (e.project !== "none" || e.path.includes(":") || e.name === DISPATCH) out.push(404);
  const tooLarge = e.bodyLimit ? ERROR_TABLE[e.bodyLimit.error].status === 413 : false;
  if (tooLarge) out.push(413);
  return out;
}

interface DispatchSchemas {
  call: OpenApiObject;
  answer: OpenApiObject;
}

/**
 * Each action as `components.schemas`: `<name>.input`, `<name>.output`, and
 * the dispatch call `<name>.call` (`{action: "<name>", input}`) and answer
 * `<name>.answer` (`{action: "<name>", result}`).
 */
function actionSchemas(actions: readonly AnyAction[], schemas: Record<string, OpenApiObject>): DispatchSchemas {
  const mapping: Record<string, string> = {};
  const answers: OpenApiObject[] = [];
  for (const a of actions) {
    const input = hoist(jsonSchemaOf(a.input, "input"), `${a.name}.input`, schemas, true);
    const output = hoist(jsonSchemaOf(a.output, "output"), `${a.name}.output`, schemas, true);
    schemas[`${a.name}.call`] = {
      type: "object",
      description: `${a.title} (${a.family} ${a.version}; access ${a.access}; tiers ${(a.tiers ?? ["standard"]).join(", ")}${a.detached ? "; answers a task to poll" : ""}). ${a.description}`,
      properties: { action: { const: a.name }, input },
      required: ["action"],
    };
    schemas[`${a.name}.answer`] = { type: "object", properties: { action: { const: a.name }, result: output }, required: ["action", "result"] };
    mapping[a.name] = `#/components/schemas/${a.name}.call`;
    answers.push({ $ref: `#/components/schemas/${a.name}.answer` });
  }
  return {
    call: { oneOf: Object.values(mapping).map(($ref) => ({ $ref })), discriminator: { propertyName: "action", mapping } },
    answer: { oneOf: answers },
  };
}

/**
 * Makes a converted schema safe to embed in the document: its `$defs` (zod
 * emits them for recursive or registered schemas) move to
 * `components.schemas` under `<name>.<def>`, and every reference to them, or
 * to the schema's own root (`#`), is rewritten to point there. With
 * `always`, the schema itself is registered as `<name>` and referenced.
 */
function hoist(schema: OpenApiObject, name: string, schemas: Record<string, OpenApiObject>, always = false): OpenApiObject {
  const { $defs, ...rest } = schema as OpenApiObject & { $defs?: Record<string, OpenApiObject> };
  const self = JSON.stringify(rest).includes('"$ref":"#"');
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    const out: OpenApiObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out[k] = v === "#" ? `#/components/schemas/${name}` : v.replace(/^#\/\$defs\//, `#/components/schemas/${name}.`);
      else out[k] = rewrite(v);
    }
    return out;
  };
  for (const [def, body] of Object.entries($defs ?? {})) schemas[`${name}.${def}`] = rewrite(body) as OpenApiObject;
  const root = rewrite(rest) as OpenApiObject;
  if (!always && !self) return root;
  schemas[name] = root;
  return { $ref: `#/components/schemas/${name}` };
}

/** The components every document starts with: how to authenticate, the paging headers, the error answers. */
function baseComponents(): OpenApiObject {
  return {
    securitySchemes: securitySchemes(),
    headers: {
      XNextCursor: { description: "The cursor of the next page; empty on the last page.", schema: { type: "string" } },
      XTotalCount: { description: "The selection's exact size, on a first page where the read can know it.", schema: { type: "integer", minimum: 0 } },
      RetryAfter: { description: "Whole seconds to wait before trying again.", schema: { type: "integer", minimum: 1 } },
      WWWAuthenticate: { description: 'The bearer challenge: `Bearer realm="pks"`, plus `error="invalid_token"` when a credential was sent.', schema: { type: "string" } },
    },
    responses: errorResponses(),
    schemas: { ErrorEnvelope: errorEnvelope() },
  };
}

function securitySchemes(): OpenApiObject {
  return {
    apiKey: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "pks_ + 49 base62 characters",
      description: "An API key (`pks key create --user U`), sent as `Authorization: Bearer pks_…`.",
    },
    session: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "pkss_ + 43 base62 characters",
      description: "A 12-hour session token from `POST /v1/sessions`, sent as `Authorization: Bearer pkss_…`.",
    },
  };
}

/** The shared non-2xx answers, each the error envelope. */
function errorResponses(): OpenApiObject {
  const envelope = { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } };
  const retryAfter = { "Retry-After": { $ref: "#/components/headers/RetryAfter" } };
  return {
    BadRequest: { description: "The input or the body was refused; the message names why.", content: envelope },
    Unauthorized: {
      description: "No valid credential: `invalid API key`, or `unauthorized` where a session token is required.",
      headers: { "WWW-Authenticate": { $ref: "#/components/headers/WWWAuthenticate" } },
      content: envelope,
    },
    Forbidden: { description: "Host or origin refused, key tier or access level too low.", content: envelope },
    NotFound: { description: "The project, or the thing named in the path, is not found (or not visible to the caller).", content: envelope },
    TooLarge: { description: "The request, or the project's storage, is over its limit.", content: envelope },
    RateLimited: { description: "`rate limit exceeded`: over 60 requests in a rolling minute for this key.", headers: retryAfter, content: envelope },
    Unavailable: { description: "The database is busy or the limiter cannot be read.", headers: retryAfter, content: envelope },
    Error: { description: "Any other error, as the error envelope.", content: envelope },
  };
}

function errorEnvelope(): OpenApiObject {
  return {
    type: "object",
    description: "The body of every non-2xx answer. Some errors add top-level fields (a 409 `schema_moved` carries `categorySchema`).",
    properties: {
      error: {
        type: "object",
        properties: {
          status: { type: "integer", minimum: 400, maximum: 599 },
          code: { type: "string", enum: Object.keys(ERROR_TABLE) },
          message: { type: "string" },
        },
        required: ["status", "code", "message"],
        additionalProperties: false,
      },
    },
    required: ["error"],
  };
}
