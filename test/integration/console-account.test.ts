/**
 * The account endpoints the console stands on, over REST: a caller's
 * projects, ending a session (sign-out), and an owner's keys — minted with a
 * session only, the plaintext in the mint answer only, revoked by their own
 * user only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Json = Record<string, unknown>;

describe("account endpoints", () => {
  let w: TestWorld;
  let sessions: Record<"owner" | "editor" | "viewer" | "outsider", string>;
  const keysPath = () => `/v1/projects/${w.projectId}/keys`;

  beforeAll(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    const mint = async (key: string) => ((await (await send(w, "/v1/sessions", { method: "POST", key })).json()) as { sessionToken: string }).sessionToken;
    sessions = { owner: await mint(w.keys.owner), editor: await mint(w.keys.editor), viewer: await mint(w.keys.viewer), outsider: await mint(w.keys.outsider) };
  });
  afterAll(async () => w.close());

  it("GET /v1/projects lists the caller's projects with their level; a bound key sees its one", async () => {
    const mine = await send(w, "/v1/projects", { key: w.keys.viewer });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({ projects: [{ projectId: w.projectId, name: "main", parentId: null, level: "viewer" }] });
    const outsider = (await (await send(w, "/v1/projects", { key: sessions.outsider })).json()) as { projects: Json[] };
    expect(outsider.projects.map((p) => [p.projectId, p.level])).toEqual([[w.otherProjectId, "owner"]]);
    const bound = (await (await send(w, "/v1/projects", { key: w.keys.bound })).json()) as { projects: Json[] };
    expect(bound.projects.map((p) => p.projectId)).toEqual([w.projectId]);
    expect((await send(w, "/v1/projects")).status).toBe(401);
  });

  it("an owner's session mints a key shown once, lists it without its plaintext, and revokes it", async () => {
    const created = await send(w, keysPath(), { method: "POST", key: sessions.owner, json: { name: "deploy bot" } });
    expect(created.status).toBe(201);
    const { key, apiKey } = (await created.json()) as { key: Json; apiKey: string };
    expect(apiKey).toMatch(/^pks_[0-9A-Za-z]{49}$/);
    expect(key).toMatchObject({ name: "deploy bot", tier: "standard", projectId: w.projectId, revokedAt: null, prefix: apiKey.slice(0, 12) });
    expect(key).not.toHaveProperty("hash");
    expect((await send(w, `/v1/projects/${w.projectId}/files`, { key: apiKey })).status).toBe(200);
    // Bound to this project: the other one is out of its reach.
    expect((await send(w, "/v1/projects", { key: apiKey }).then((r) => r.json())) as Json).toEqual({
      projects: [{ projectId: w.projectId, name: "main", parentId: null, level: "owner" }],
    });

    const listed = await send(w, keysPath(), { key: sessions.owner });
    const text = await listed.text();
    expect(listed.status).toBe(200);
    expect(text).not.toContain(apiKey);
    const keys = (JSON.parse(text) as { keys: Json[] }).keys;
    expect(keys.map((k) => k.name)).toEqual(["deploy bot", ""]);

    const unbound = (await (await send(w, keysPath(), { method: "POST", key: sessions.owner, json: { bound: false } })).json()) as { key: Json };
    expect(unbound.key.projectId).toBeNull();

    const revoked = await send(w, `${keysPath()}/${key.keyId as string}/revoke`, { method: "POST", key: sessions.owner });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { key: Json }).key.revokedAt).toEqual(expect.any(String));
    expect((await send(w, `/v1/projects/${w.projectId}/files`, { key: apiKey })).status).toBe(401);
    // Revoking again answers the key as it is.
    expect((await send(w, `${keysPath()}/${key.keyId as string}/revoke`, { method: "POST", key: sessions.owner })).status).toBe(200);
  });

  it("keys need a session, the owner level, and the caller's own key", async () => {
    expect((await send(w, keysPath(), { key: w.keys.owner })).status).toBe(401);
    expect((await send(w, keysPath(), { method: "POST", key: w.keys.owner, json: {} })).status).toBe(401);
    for (const s of [sessions.editor, sessions.viewer]) {
      const res = await send(w, keysPath(), { method: "POST", key: s, json: { name: "x" } });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { status: 403, code: "editor_access_required", message: "editor access required" } });
    }
    expect((await send(w, keysPath(), { key: sessions.outsider })).status).toBe(404);
    // The editor's own key, named by the owner: answered like an unknown key, and still live.
    const editorKeyId = (await w.app.db.get<{ key_id: string }>("SELECT key_id FROM api_keys WHERE user_id = ? LIMIT 1", [w.userIds.editor]))!.key_id;
    const foreign = await send(w, `${keysPath()}/${editorKeyId}/revoke`, { method: "POST", key: sessions.owner });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: { status: 404, code: "not_found", message: "not found" } });
    expect((await send(w, `/v1/projects/${w.projectId}/files`, { key: w.keys.editor })).status).toBe(200);
    const bad = await send(w, keysPath(), { method: "POST", key: sessions.owner, json: { name: "a\u0000b" } });
    expect(bad.status).toBe(400);
  });

  it("POST /v1/sessions/end ends the caller's own session at once, and no one else's", async () => {
    const viewer = ((await (await send(w, "/v1/sessions", { method: "POST", key: w.keys.viewer })).json()) as { sessionToken: string }).sessionToken;
    const proposals = `/v1/projects/${w.projectId}/category-proposals`;
    expect((await send(w, proposals, { key: viewer })).status).toBe(200);
    // Another user's session cannot end it.
    const other = await send(w, "/v1/sessions/end", { method: "POST", key: sessions.editor, json: { sessionToken: viewer } });
    expect(await other.json()).toEqual({ ended: false });
    expect((await send(w, proposals, { key: viewer })).status).toBe(200);
    // A key cannot call it: it takes a session.
    expect((await send(w, "/v1/sessions/end", { method: "POST", key: w.keys.viewer, json: { sessionToken: viewer } })).status).toBe(401);
    const ended = await send(w, "/v1/sessions/end", { method: "POST", key: viewer, json: { sessionToken: viewer } });
    expect(await ended.json()).toEqual({ ended: true });
    expect((await send(w, proposals, { key: viewer })).status).toBe(401);
  });
});
