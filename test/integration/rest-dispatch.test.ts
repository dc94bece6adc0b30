import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setMembership } from "../../src/store/access/memberships.js";
import { revokeApiKey, listApiKeys } from "../../src/store/access/api-keys.js";
import { seededRandom } from "../fixtures/secrets/adversarial-input.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const DISPATCH = "/v1/api/actions";

async function errorOf(res: Response) {
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  return (await res.json()) as { error: { status: number; code: string; message: string } };
}

describe("POST /v1/api/actions", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld();
  });
  afterEach(async () => w.close());

  it("dispatches through the catalog and answers {action, result}", async () => {
    const res = await send(w, DISPATCH, {
      method: "POST",
      key: w.keys.viewer,
      project: w.projectId,
      json: { action: "test_echo", input: { text: "hi" } },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      action: "test_echo",
      result: { echoed: "hi", projectId: w.projectId, level: "viewer" },
    });
  });

  it("takes the project from the projectId query, or from the key's binding", async () => {
    const byQuery = await send(w, `${DISPATCH}?projectId=${w.projectId}`, {
      method: "POST",
      key: w.keys.viewer,
      json: { action: "test_echo" },
    });
    expect(byQuery.status).toBe(200);
    const byBinding = await send(w, DISPATCH, { method: "POST", key: w.keys.bound, json: { action: "test_echo" } });
    expect(((await byBinding.json()) as { result: { projectId: string } }).result.projectId).toBe(w.projectId);
  });

  it("400 action is required", async () => {
    const res = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, project: w.projectId, json: { input: {} } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ error: { status: 400, code: "action_required", message: "action is required" } });
  });

  it("400 invalid request body for non-JSON, non-object and non-UTF-8 bodies", async () => {
    for (const body of ["{not json", "[1,2]", "null", "\"text\"", new Uint8Array([0x7b, 0xff, 0x7d])]) {
      const res = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, project: w.projectId, body });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).error.message).toBe("invalid request body");
    }
  });

  it("400 invalid request body over 1 MiB, counted as the body streams", async () => {
    const exact = JSON.stringify({ action: "test_echo", input: {}, pad: "x".repeat(1_048_576 - 100) });
    const fits = exact + " ".repeat(1_048_576 - Buffer.byteLength(exact));
    expect(Buffer.byteLength(fits)).toBe(1_048_576);
    const ok = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, project: w.projectId, body: fits });
    expect(ok.status).toBe(200);
    const over = `${fits} `;
    const declared = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, project: w.projectId, body: over });
    expect((await errorOf(declared)).error.message).toBe("invalid request body");
    const stream = new ReadableStream({
      start(c) {
        const bytes = new TextEncoder().encode(over);
        for (let i = 0; i < bytes.length; i += 65_536) c.enqueue(bytes.slice(i, i + 65_536));
        c.close();
      },
    });
    const chunked = await send(w, DISPATCH, {
      method: "POST",
      key: w.keys.viewer,
      project: w.projectId,
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect((await errorOf(chunked)).error.message).toBe("invalid request body");
  });

  it("400 when no project is named and the key is unbound", async () => {
    const res = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, json: { action: "test_echo" } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).error.message).toBe(
      "name the target project via the X-Project-Id header or projectId query",
    );
  });

  it("400 invalid input names the field, and the action never runs", async () => {
    const res = await send(w, DISPATCH, {
      method: "POST",
      key: w.keys.editor,
      project: w.projectId,
      json: { action: "test_write", input: { value: "seven" } },
    });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.error.code).toBe("invalid_input");
    expect(e.error.message).toMatch(/^invalid input: value: /);
  });

  it("401 invalid API key: missing, malformed, bad checksum, unknown, revoked", async () => {
    const good = w.keys.viewer;
    const flipped = good.slice(0, -1) + (good.endsWith("A") ? "B" : "A");
    const unknown = await (async () => {
      const { mintApiKey } = await import("../../src/access/api-key-format.js");
      return mintApiKey().plaintext;
    })();
    const headers = [undefined, "Bearer", "Basic abc", `Bearer ${good}x`, `Bearer ${flipped}`, `Bearer ${unknown}`, "Bearer pks_"];
    for (const h of headers) {
      const res = await send(w, DISPATCH, {
        method: "POST",
        project: w.projectId,
        headers: h ? { authorization: h } : {},
        json: { action: "test_echo" },
      });
      expect(res.status, String(h)).toBe(401);
      expect(await errorOf(res)).toEqual({ error: { status: 401, code: "invalid_api_key", message: "invalid API key" } });
    }
    const [viewerKey] = await listApiKeys(w.app.deps.db, w.userIds.viewer);
    await revokeApiKey(w.app.deps.db, viewerKey!.keyId);
    const revoked = await send(w, DISPATCH, { method: "POST", key: good, project: w.projectId, json: { action: "test_echo" } });
    expect(revoked.status).toBe(401);
  });

  it("401 for 1,000 random bearer tokens", async () => {
    const { toBase62 } = await import("../../src/base62.js");
    // Random, but the same on every run: drawn from a fixed seed.
    const random = seededRandom(1);
    const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
    const statuses = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const token = i % 2 ? `pks_${toBase62(randomBytes(37), 49)}` : randomBytes(24).toString("base64url");
      const res = await send(w, DISPATCH, { method: "POST", key: token, project: w.projectId, json: { action: "test_echo" } });
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([401]);
  });

  it("403 action not available: an editor action for a viewer, any standard action for a submit key", async () => {
    const viewer = await send(w, DISPATCH, {
      method: "POST",
      key: w.keys.viewer,
      project: w.projectId,
      json: { action: "test_write", input: { value: 1 } },
    });
    expect(viewer.status).toBe(403);
    expect(await errorOf(viewer)).toEqual({
      error: { status: 403, code: "action_not_available", message: "action not available to an API key" },
    });
    const submit = await send(w, DISPATCH, { method: "POST", key: w.keys.submit, json: { action: "test_echo" } });
    expect(submit.status).toBe(403);
    const allowed = await send(w, DISPATCH, { method: "POST", key: w.keys.submit, json: { action: "test_submit" } });
    expect(await allowed.json()).toEqual({ action: "test_submit", result: { boundTypeId: "ent_form" } });
  });

  it("re-reads the access level on every call: a downgraded editor makes no further writes", async () => {
    const write = () =>
      send(w, DISPATCH, { method: "POST", key: w.keys.editor, project: w.projectId, json: { action: "test_write", input: { value: 1 } } });
    expect((await write()).status).toBe(200);
    await setMembership(w.app.deps.db, w.projectId, w.userIds.editor, "viewer");
    expect((await write()).status).toBe(403);
  });

  it("404 unknown action", async () => {
    const res = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "nope" } });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ error: { status: 404, code: "unknown_action", message: "unknown action" } });
  });

  it("404 project not found for a non-member, byte-identical to an unknown project", async () => {
    const denied = await send(w, DISPATCH, { method: "POST", key: w.keys.outsider, project: w.projectId, json: { action: "test_echo" } });
    const missing = await send(w, DISPATCH, { method: "POST", key: w.keys.outsider, project: "prj_doesnotexist", json: { action: "test_echo" } });
    const otherBound = await send(w, DISPATCH, { method: "POST", key: w.keys.bound, project: w.otherProjectId, json: { action: "test_echo" } });
    expect(denied.status).toBe(404);
    const bodies = await Promise.all([denied, missing, otherBound].map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toEqual({ error: { status: 404, code: "project_not_found", message: "project not found" } });
    expect([...denied.headers.entries()]).toEqual([...missing.headers.entries()]);
  });

  it("500 internal error never leaks driver text, paths or stacks", async () => {
    const res = await send(w, DISPATCH, { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "test_fail" } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { status: 500, code: "internal", message: "internal error" } });
    expect(text).not.toMatch(/SQLITE|secret|\.ts|at /);
  });
});

describe("GET /v1/api/actions", () => {
  it("lists the catalog with each input's JSON Schema", async () => {
    const w = await createTestWorld();
    const res = await send(w, "/v1/api/actions", { key: w.keys.viewer });
    const body = (await res.json()) as { actions: Array<{ name: string; inputSchema: Record<string, unknown> }> };
    expect(body.actions.map((a) => a.name)).toEqual(["test_echo", "test_write", "test_submit", "test_fail"]);
    expect(body.actions[1]!.inputSchema).toMatchObject({
      type: "object",
      properties: { value: { type: "number" } },
      required: ["value"],
    });
    await w.close();
  });
});
