/**
 * The OpenAPI document at GET /v1/openapi.json: valid OpenAPI 3.1, one
 * operation per served route, the endpoint data (security, paging, errors)
 * carried over, and answers the server really sends matching it.
 *
 * Validator: @seriousme/openapi-schema-validator (devDependency). It checks a
 * document against the official OpenAPI JSON Schemas, 3.1 included (with the
 * 2020-12 dialect the 3.1 schema objects use), and fails on a `$ref` that
 * does not resolve; it is small (ajv underneath, which pks already uses) and
 * kept up to date with the specification's schemas.
 */
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../../src/core/openapi.js";
import { ERROR_TABLE } from "../../src/errors.js";
import { actions as productActions } from "../../tools/index.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { testEndpoints } from "../support/test-catalog.js";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, { content?: Record<string, { schema: Json }> }> };
};
type Operation = {
  operationId: string;
  security: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json & { $ref?: string; headers?: Record<string, { $ref: string }>; content?: Record<string, { schema: Json }> }>;
};
type Json = Record<string, unknown>;

async function documentOf(w: TestWorld): Promise<Doc> {
  const res = await send(w, "/v1/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as Doc;
}

/** `METHOD /path` of every route the HTTP app serves (405 refusals and middleware are `ALL`). */
function servedRoutes(w: TestWorld): string[] {
  return w.app.http.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${openApiPath(r.path)}`);
}

function describedRoutes(doc: Doc): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
}

/** The document with every `$ref` replaced by its target (the validator resolves in place, so on a copy). */
async function resolved(doc: Doc): Promise<Doc> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  expect(result.errors).toBeUndefined();
  return validator.resolveRefs() as Doc;
}

describe("OpenAPI document of the product", () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await createTestWorld({ actions: productActions, startWorker: false });
  });
  afterAll(async () => w.close());

  it("is served without a key and is a valid OpenAPI 3.1 document whose every $ref resolves", async () => {
    const doc = await documentOf(w);
    expect(doc.openapi).toBe("3.1.0");
    expect((doc as unknown as { info: { version: string } }).info.version).toBe("1.0.0");
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("the validator refuses a broken document, so the check above can fail", async () => {
    const doc = await documentOf(w);
    const dangling = structuredClone(doc);
    dangling.paths["/v1/sessions"]!.post!.responses["201"]!.content!["application/json"]!.schema = { $ref: "#/components/schemas/Nope" };
    expect((await new Validator().validate(dangling)).valid).toBe(false);
    const wrongVersion = { ...structuredClone(doc), openapi: 3.1 };
    expect((await new Validator().validate(wrongVersion as unknown as Json)).valid).toBe(false);
  });

  it("the dispatch body is one of the catalog's calls, each with the action's own input schema", async () => {
    const doc = await documentOf(w);
    const dispatch = doc.paths["/v1/api/actions"]!.post!;
    const body = dispatch.requestBody!.content["application/json"]!.schema as { oneOf: Array<{ $ref: string }>; discriminator: { propertyName: string; mapping: Record<string, string> } };
    expect(body.discriminator.propertyName).toBe("action");
    const names = productActions.map((a) => a.name).sort();
    expect(Object.keys(body.discriminator.mapping).sort()).toEqual(names);
    expect(body.oneOf.map((b) => b.$ref).sort()).toEqual(names.map((n) => `#/components/schemas/${n}.call`).sort());
    const catalog = (await (await send(w, "/v1/api/actions", { key: w.keys.viewer })).json()) as { actions: Array<{ name: string; inputSchema: Json; outputSchema: Json }> };
    for (const a of catalog.actions) {
      const call = doc.components.schemas[`${a.name}.call`] as { properties: { action: Json; input: { $ref: string } } };
      expect(call.properties.action).toEqual({ const: a.name });
      expect(call.properties.input.$ref).toBe(`#/components/schemas/${a.name}.input`);
      expect(doc.components.schemas[`${a.name}.input`]).toEqual(a.inputSchema);
      expect(doc.components.schemas[`${a.name}.output`]).toEqual(a.outputSchema);
    }
  });

  it("docs/api.md's served-routes table is exactly the routes the HTTP app serves, GET /v1/openapi.json included", () => {
    const doc = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const start = doc.indexOf("## Served routes");
    const table = doc.slice(start, doc.indexOf("\n## ", start + 1));
    const documented = [...table.matchAll(/^\| `([A-Z/]+) (\/[^`]+)` \|/gm)].flatMap((m) => m[1]!.split("/").map((method) => `${method} ${m[2]}`));
    expect(documented).toContain("GET /v1/openapi.json");
    expect(documented.sort()).toEqual(servedRoutes(w).sort());
  });
});

describe("OpenAPI document against the served routes", () => {
  let w: TestWorld;
  let doc: Doc;
  beforeAll(async () => {
    w = await createTestWorld({ extraEndpoints: testEndpoints, startWorker: false });
    doc = await documentOf(w);
  });
  afterAll(async () => w.close());

  it("every served route appears exactly once, and every endpoint under its own name", () => {
    const served = servedRoutes(w);
    expect(new Set(served).size).toBe(served.length);
    expect(describedRoutes(doc).sort()).toEqual(served.sort());
    const operationIds = describedRoutes(doc).map((r) => {
      const [method, path] = r.split(" ");
      return doc.paths[path!]![method!.toLowerCase()]!.operationId;
    });
    expect(new Set(operationIds).size).toBe(operationIds.length);
    for (const e of w.app.endpoints) {
      expect(doc.paths[openApiPath(e.path)]?.[e.method.toLowerCase()]?.operationId).toBe(e.name);
    }
    expect(w.app.endpoints.map((e) => e.name)).toEqual(expect.arrayContaining(testEndpoints.map((e) => e.name)));
  });

  it("security, path parameters, paging headers and error answers follow each endpoint's data", () => {
    for (const e of w.app.endpoints) {
      const op = doc.paths[openApiPath(e.path)]![e.method.toLowerCase()]!;
      const schemes = (e.auth ?? ["key"]).map((a) => ({ [a === "key" ? "apiKey" : "session"]: [] }));
      expect(op.security, e.name).toEqual(schemes);
      const pathParams = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect(pathParams, e.name).toEqual([...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
      const ok = op.responses[String(e.status ?? 200)]!;
      expect(ok.content?.["application/json"], e.name).toBeDefined();
      if (e.reply === "page") {
        expect(ok.headers, e.name).toEqual({
          "X-Next-Cursor": { $ref: "#/components/headers/XNextCursor" },
          "X-Total-Count": { $ref: "#/components/headers/XTotalCount" },
        });
      } else {
        expect(ok.headers, e.name).toBeUndefined();
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (/^2/.test(status)) continue;
        expect(response.$ref, `${e.name} ${status}`).toMatch(/^#\/components\/responses\//);
      }
      expect(op.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
      expect(op.responses["429"]).toEqual({ $ref: "#/components/responses/RateLimited" });
      expect(op.responses.default).toEqual({ $ref: "#/components/responses/Error" });
    }
    for (const [name, response] of Object.entries(doc.components.responses)) {
      expect(response.content?.["application/json"]?.schema, name).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
    }
    const envelope = doc.components.schemas.ErrorEnvelope as { properties: { error: { properties: { code: { enum: string[] } } } } };
    expect(envelope.properties.error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_TABLE).sort());
    expect(doc.paths["/v1/openapi.json"]!.get!.security).toEqual([]);
  });

  it("answers the server sends match the documented schemas, and a wrong answer does not", async () => {
    const full = await resolved(doc);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const schemaOf = (path: string, method: string, status: string) =>
      full.paths[path]![method]!.responses[status]!.content!["application/json"]!.schema;

    const dispatched = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "test_echo", input: { text: "hi" } } });
    expect(dispatched.status).toBe(200);
    const answer = ajv.compile(schemaOf("/v1/api/actions", "post", "200"));
    expect(answer(await dispatched.json())).toBe(true);
    expect(answer({ action: "test_echo", result: { echoed: 1 } })).toBe(false);

    const call = ajv.compile(full.paths["/v1/api/actions"]!.post!.requestBody!.content["application/json"]!.schema);
    expect(call({ action: "test_write", input: { value: 3 } })).toBe(true);
    expect(call({ action: "test_write", input: { value: "3" } })).toBe(false);

    const cells = await send(w, `/v1/projects/${w.projectId}/cells`, { key: w.keys.viewer });
    expect(cells.status).toBe(200);
    expect(ajv.compile(schemaOf("/v1/projects/{projectId}/cells", "get", "200"))(await cells.json())).toBe(true);

    const envelope = ajv.compile(full.components.schemas.ErrorEnvelope!);
    const refused = await send(w, `/v1/projects/${w.projectId}/cells`);
    expect(refused.status).toBe(401);
    expect(envelope(await refused.json())).toBe(true);
    const badLimit = await send(w, `/v1/projects/${w.projectId}/cells?limit=x`, { key: w.keys.viewer });
    expect(badLimit.status).toBe(400);
    expect(envelope(await badLimit.json())).toBe(true);
    expect(envelope({ error: { status: 400, code: "no_such_code", message: "x" } })).toBe(false);
  });

  it("the document's route answers 405 to other methods and 403 to a foreign host, like every route", async () => {
    const post = await send(w, "/v1/openapi.json", { method: "POST", key: w.keys.viewer });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ error: { status: 405, code: "method_not_allowed", message: "method not allowed" } });
    const foreign = await send(w, "/v1/openapi.json", { headers: { host: "evil.example" } });
    expect(foreign.status).toBe(403);
  });
});
