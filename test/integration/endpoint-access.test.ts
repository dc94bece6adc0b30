import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyEndpoint } from "../../src/core/endpoint.js";
import { mintSession } from "../../src/access/session-token.js";
import { authenticateKey } from "../../src/access/authenticate.js";
import { actions as productActions } from "../../tools/index.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { testActions, testEndpoints } from "../support/test-catalog.js";

const SUBMIT_DENIED = '{"error":{"status":403,"code":"action_not_available","message":"action not available to an API key"}}';
const EDITOR_DENIED = '{"error":{"status":403,"code":"editor_access_required","message":"editor access required"}}';
const NOT_FOUND = '{"error":{"status":404,"code":"project_not_found","message":"project not found"}}';

/** A request to an endpoint with every path parameter filled and a body of the declared kind. */
function requestTo(w: TestWorld, e: AnyEndpoint, token: string, projectId = w.projectId): Promise<Response> {
  const path = e.path.replace(/:(\w+)/g, (_m, name: string) => (name === "projectId" ? projectId : `x_${name}`));
  const headers: Record<string, string> = { host: "127.0.0.1:8787", authorization: `Bearer ${token}` };
  if (e.project === "header") headers["x-project-id"] = projectId;
  const kind = e.body ?? (e.method === "GET" ? "none" : "json");
  const body = kind === "none" ? undefined : kind === "bytes" ? "bytes" : "{}";
  return Promise.resolve(w.app.http.request(`http://127.0.0.1:8787${path}`, { method: e.method, headers, body }));
}

/** Every endpoint the app serves, with a session token where the endpoint takes sessions only. */
function credential(e: AnyEndpoint, key: string, session: string): string {
  return e.auth && !e.auth.includes("key") ? session : key;
}

describe("one way in: tiers, levels and projects on every endpoint", () => {
  let w: TestWorld;
  let sessions: Record<"submit" | "viewer" | "outsider", string>;
  beforeAll(async () => {
    w = await createTestWorld({
      actions: [...productActions, ...testActions],
      extraEndpoints: testEndpoints,
      env: { PKS_RATE_LIMIT: "100000" },
    });
    const now = new Date(w.app.deps.clock());
    const sessionOf = async (key: string) => {
      const p = await authenticateKey(w.app.db, `Bearer ${key}`);
      return (await mintSession(w.app.db, p, now)).sessionToken;
    };
    sessions = { submit: await sessionOf(w.keys.submit), viewer: await sessionOf(w.keys.viewer), outsider: await sessionOf(w.keys.outsider) };
  });
  afterAll(async () => w.close());

  it("serves every endpoint from one list, each with a method, path, access, input and output schema", () => {
    expect(w.app.endpoints.length).toBeGreaterThanOrEqual(14);
    for (const e of w.app.endpoints) {
      expect(e.path.startsWith("/v1/"), e.name).toBe(true);
      expect(e.input, e.name).toBeDefined();
      expect(e.output, e.name).toBeDefined();
    }
  });

  it("a submit key (and a session minted from it) gets 403 on every endpoint that does not list the submit tier", async () => {
    let checked = 0;
    for (const e of w.app.endpoints) {
      if (e.tiers?.includes("submit")) continue;
      const res = await requestTo(w, e, credential(e, w.keys.submit, sessions.submit));
      expect(`${e.method} ${e.path} ${res.status} ${await res.text()}`).toBe(`${e.method} ${e.path} 403 ${SUBMIT_DENIED}`);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(13);
  });

  it("a submit key dispatching any action that does not list its tier gets the same 403", async () => {
    const dispatch = w.app.endpoints.find((e) => e.name === "actions.dispatch")!;
    for (const a of w.app.service.catalog.list()) {
      if (a.tiers?.includes("submit")) continue;
      const res = await w.app.http.request("http://127.0.0.1:8787/v1/api/actions", {
        method: dispatch.method,
        headers: { host: "127.0.0.1:8787", authorization: `Bearer ${w.keys.submit}`, "content-type": "application/json" },
        body: JSON.stringify({ action: a.name, input: {} }),
      });
      expect(`${a.name} ${res.status} ${await res.text()}`).toBe(`${a.name} 403 ${SUBMIT_DENIED}`);
    }
  });

  it("a viewer dispatching any action above its level gets 403 action not available to an API key, and nothing is queued", async () => {
    const tasks = async () => (await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks"))?.n;
    const before = await tasks();
    const above = w.app.service.catalog.list().filter((a) => a.access === "editor" && !a.tiers?.includes("submit"));
    expect(above.map((a) => a.name)).toEqual(expect.arrayContaining(["document_ingest", "artifact_update", "type_schema_edit"]));
    for (const a of above) {
      const res = await w.app.http.request("http://127.0.0.1:8787/v1/api/actions", {
        method: "POST",
        headers: { host: "127.0.0.1:8787", authorization: `Bearer ${w.keys.viewer}`, "x-project-id": w.projectId, "content-type": "application/json" },
        body: JSON.stringify({ action: a.name, input: {} }),
      });
      expect(`${a.name} ${res.status} ${await res.text()}`).toBe(`${a.name} 403 ${SUBMIT_DENIED}`);
    }
    expect(await tasks()).toBe(before);
  });

  it("a viewer gets 403 editor access required on every endpoint that needs more", async () => {
    let checked = 0;
    for (const e of w.app.endpoints) {
      if (e.access !== "editor" && e.access !== "owner") continue;
      const res = await requestTo(w, e, credential(e, w.keys.viewer, sessions.viewer));
      expect(`${e.method} ${e.path} ${res.status} ${await res.text()}`).toBe(`${e.method} ${e.path} 403 ${EDITOR_DENIED}`);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it("a non-member gets 404 project not found on every project endpoint, byte-identical to an unknown project", async () => {
    let checked = 0;
    for (const e of w.app.endpoints) {
      if (e.project === "none") continue;
      const token = credential(e, w.keys.outsider, sessions.outsider);
      const member = await requestTo(w, e, token);
      const unknown = await requestTo(w, e, token, "prj_doesnotexist");
      expect(`${e.method} ${e.path} ${member.status} ${await member.text()}`).toBe(`${e.method} ${e.path} 404 ${NOT_FOUND}`);
      expect(`${e.method} ${e.path} ${unknown.status} ${await unknown.text()}`).toBe(`${e.method} ${e.path} 404 ${NOT_FOUND}`);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it("nothing refused above reached the store: no file, chunk or session row was written by a refused call", async () => {
    const files = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM files");
    const chunks = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM chunks");
    const stored = await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM sessions");
    expect({ files: files?.n, chunks: chunks?.n, sessions: stored?.n }).toEqual({ files: 0, chunks: 0, sessions: 3 });
  });
});
