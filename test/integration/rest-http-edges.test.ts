import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { openDatabase } from "../../src/store/db.js";
import { createTestWorld, fakeClock, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { testEndpoints } from "../support/test-catalog.js";

const echo = { action: "test_echo" };

describe("rate limit", () => {
  let w: TestWorld;
  let clock: ReturnType<typeof fakeClock>;
  beforeEach(async () => {
    clock = fakeClock();
    w = await createTestWorld({ clock });
  });
  afterEach(async () => w.close());

  it("100 parallel requests on one key: exactly 60 succeed, 40 get 429 with Retry-After", async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo })),
    );
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    expect(ok).toHaveLength(60);
    expect(limited).toHaveLength(40);
    for (const r of limited) {
      const retry = Number(r.headers.get("retry-after"));
      expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
      expect(await r.json()).toEqual({ error: { status: 429, code: "rate_limited", message: "rate limit exceeded" } });
    }
    const wait = Number(limited[0]!.headers.get("retry-after"));
    clock.advance(wait * 1000);
    const after = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo });
    expect(after.status).toBe(200);
  });

  it("is a sliding window per key, and other keys are unaffected", async () => {
    for (let i = 0; i < 60; i++) {
      clock.advance(500);
      expect((await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo })).status).toBe(200);
    }
    const limited = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo });
    expect(limited.status).toBe(429);
    // The oldest request is 29.5 s old: it leaves the window in 30.5 s.
    expect(limited.headers.get("retry-after")).toBe("31");
    expect((await send(w, "/v1/api/actions", { method: "POST", key: w.keys.editor, project: w.projectId, json: echo })).status).toBe(200);
    clock.advance(30_000);
    expect((await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo })).status).toBe(429);
    clock.advance(1_000);
    expect((await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo })).status).toBe(200);
  });

  it("is shared by every process on the same database, once their batches are exchanged, and survives a restart", async () => {
    const dbUrl = `file:${w.root}/shared.db`;
    const a = await createTestWorld({ clock, dbUrl });
    const config = loadConfig({ root: a.root, db: dbUrl }, { PKS_LOG: "silent" });
    const b = await createApp(config, { clock });
    let ok = 0;
    for (let i = 0; i < 70; i++) {
      const [app, other] = i % 2 ? [b, a.app] : [a.app, b];
      const res = await app.http.request("http://127.0.0.1/v1/api/actions", {
        method: "POST",
        headers: { authorization: `Bearer ${a.keys.viewer}`, "x-project-id": a.projectId, host: "127.0.0.1" },
        body: JSON.stringify(echo),
      });
      if (res.status !== 429) ok++;
      // Each process writes its counted requests and reads the other's every RATE_SYNC_MS; here at once.
      await app.rateLimit.flush();
      await other.rateLimit.flush();
    }
    expect(ok).toBe(60);
    await b.close();
    // A process started after both stopped loads the window they wrote.
    const c = await createApp(config, { clock });
    const again = await c.http.request("http://127.0.0.1/v1/api/actions", {
      method: "POST",
      headers: { authorization: `Bearer ${a.keys.viewer}`, "x-project-id": a.projectId, host: "127.0.0.1" },
      body: JSON.stringify(echo),
    });
    expect(again.status).toBe(429);
    await c.close();
    await a.close();
  });

  it("a limiter store that cannot be written fails no request, and the window still holds", async () => {
    await w.app.deps.db.execute("DROP TABLE rate_events");
    for (let i = 0; i < 60; i++) {
      const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo });
      expect(res.status).toBe(200);
      if (i % 20 === 0) await w.app.rateLimit.flush();
    }
    const limited = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo });
    expect(limited.status).toBe(429);
    expect(await limited.text()).not.toMatch(/rate_events|SQLITE/);
  });
});

describe("routing, hosts and origins", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld();
  });
  afterEach(async () => w.close());

  it("unknown route 404 and wrong method 405, as JSON envelopes", async () => {
    const missing = await send(w, "/v1/nothing-here", { key: w.keys.viewer });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { status: 404, code: "not_found", message: "not found" } });
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const res = await send(w, "/v1/api/actions", { method, key: w.keys.viewer });
      expect(res.status).toBe(405);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
    }
  });

  it("403 for a foreign Host or Origin, before anything runs; no Origin passes", async () => {
    const hosts = ["evil.com", "127.0.0.1.evil.com", "localhost.evil.com:8787"];
    for (const host of hosts) {
      const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo, headers: { host } });
      expect(res.status, host).toBe(403);
    }
    for (const origin of ["http://evil.com", "null", "http://localhost.evil.com", "file://"]) {
      const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo, headers: { origin } });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
    for (const origin of ["http://localhost:8787", "http://127.0.0.1:8787"]) {
      const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: echo, headers: { origin } });
      expect(res.status, origin).toBe(200);
    }
    const mcp = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers: { host: "evil.com" }, json: {} });
    expect(mcp.status).toBe(403);
  });

  it("accepts configured extra hosts and origins", async () => {
    const db = await openDatabase({ url: ":memory:" });
    db.close();
    const config = { ...loadConfig({ root: w.root, db: ":memory:" }, { PKS_ALLOWED_HOSTS: "pks.internal", PKS_ALLOWED_ORIGINS: "https://app.example" }) };
    const app = await createApp(config, {});
    const res = await app.http.request("http://pks.internal/v1/api/actions", {
      headers: { host: "pks.internal", origin: "https://app.example" },
    });
    expect(res.status).toBe(401);
    await app.close();
  });
});

describe("sessions and editor access", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld();
  });
  afterEach(async () => w.close());

  it("POST /v1/sessions trades a key for a 12-hour session token", async () => {
    const res = await send(w, "/v1/sessions", { method: "POST", key: w.keys.editor });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { sessionToken: string; expiresAt: string };
    expect(body.sessionToken).toMatch(/^pkss_[0-9A-Za-z]{43}$/);
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const stored = await w.app.deps.db.all<{ hash: string }>("SELECT hash FROM sessions");
    expect(JSON.stringify(stored)).not.toContain(body.sessionToken);
  });

  it("403 editor access required on write endpoints, 401 unauthorized without a session", async () => {
    const t = await createTestWorld({ extraEndpoints: testEndpoints });
    const http = t.app.http;
    const put = (key: string) =>
      http.request(`http://127.0.0.1/v1/projects/${t.projectId}/things`, {
        method: "PUT",
        headers: { host: "127.0.0.1", authorization: `Bearer ${key}` },
      });
    const viewer = await put(t.keys.viewer);
    expect(viewer.status).toBe(403);
    expect(await viewer.json()).toEqual({ error: { status: 403, code: "editor_access_required", message: "editor access required" } });
    expect((await put(t.keys.editor)).status).toBe(200);

    const proposals = `http://127.0.0.1/v1/projects/${t.projectId}/category-proposals`;
    const noSession = await http.request(proposals, { headers: { host: "127.0.0.1", authorization: `Bearer ${t.keys.editor}` } });
    expect(noSession.status).toBe(401);
    expect(await noSession.json()).toEqual({ error: { status: 401, code: "unauthorized", message: "unauthorized" } });
    const minted = (await (await send(t, "/v1/sessions", { method: "POST", key: t.keys.editor })).json()) as { sessionToken: string };
    const withSession = await http.request(proposals, { headers: { host: "127.0.0.1", authorization: `Bearer ${minted.sessionToken}` } });
    expect(withSession.status).toBe(200);
    await t.close();
  });
});
