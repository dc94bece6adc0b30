/**
 * A key bound to one project stays there, and so does everything it leads
 * to: the session it is traded for, every key that session (or the console
 * signed in with it) mints, and what those can list, revoke and end. The
 * owner here owns two projects, A and C, so only the binding stands between
 * a credential of A and project C.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/access/create-api-key.js";
import { setMembership } from "../../src/store/access/memberships.js";
import { createProject } from "../../src/store/access/projects.js";
import { Client, csrfOf } from "../support/console-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Json = Record<string, unknown>;

describe("a bound key's reach", () => {
  let w: TestWorld;
  let a: string;
  let c: string;
  const keyIds: Record<"boundA" | "boundC" | "unbound" | "typedA", string> = { boundA: "", boundC: "", unbound: "", typedA: "" };
  const plain: Record<"boundA" | "boundC" | "unbound" | "typedA", string> = { boundA: "", boundC: "", unbound: "", typedA: "" };

  beforeAll(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
    const db = w.app.deps.db;
    a = w.projectId;
    c = (await createProject(db, { name: "c" })).projectId;
    await setMembership(db, c, w.userIds.owner, "owner");
    const mint = async (name: keyof typeof plain, projectId: string | null, boundTypeId: string | null = null) => {
      const made = await createApiKey(db, { userId: w.userIds.owner, name, projectId, boundTypeId });
      keyIds[name] = made.key.keyId;
      plain[name] = made.plaintext;
    };
    await mint("boundA", a);
    await mint("boundC", c);
    await mint("unbound", null);
    await mint("typedA", a, "ent_form");
  });
  afterAll(async () => w.close());

  const session = async (key: string) => {
    const res = await send(w, "/v1/sessions", { method: "POST", key });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sessionToken: string }).sessionToken;
  };
  const keysOf = (p: string) => `/v1/projects/${p}/keys`;
  const liveKeyIds = async () =>
    (await w.app.db.all<{ key_id: string }>("SELECT key_id FROM api_keys WHERE revoked_at IS NULL")).map((r) => r.key_id);

  it("the owner's unbound key reaches C, the bound key and its session do not", async () => {
    expect((await send(w, `/v1/projects/${c}/files`, { key: plain.unbound })).status).toBe(200);
    expect((await send(w, `/v1/projects/${c}/files`, { key: plain.boundA })).status).toBe(404);
    const s = await session(plain.boundA);
    expect((await send(w, `/v1/projects/${c}/category-proposals`, { key: s })).status).toBe(404);
    expect((await send(w, `/v1/projects/${a}/category-proposals`, { key: s })).status).toBe(200);
    expect((await send(w, keysOf(c), { key: s })).status).toBe(404);
    expect((await send(w, keysOf(c), { method: "POST", key: s, json: {} })).status).toBe(404);
    expect((await send(w, `${keysOf(c)}/${keyIds.boundC}/revoke`, { method: "POST", key: s })).status).toBe(404);
  });

  it("a bound session mints only keys bound to its project, with its key's tier and type", async () => {
    const s = await session(plain.boundA);
    const before = await liveKeyIds();
    const escape = await send(w, keysOf(a), { method: "POST", key: s, json: { name: "escape", bound: false } });
    expect(escape.status).toBe(403);
    expect(await escape.json()).toEqual({
      error: { status: 403, code: "forbidden", message: "a key bound to a project mints only keys bound to that project" },
    });
    expect(await liveKeyIds()).toEqual(before);

    const minted = await send(w, keysOf(a), { method: "POST", key: s, json: { name: "child" } });
    expect(minted.status).toBe(201);
    const { key, apiKey } = (await minted.json()) as { key: Json; apiKey: string };
    expect(key).toMatchObject({ projectId: a, tier: "standard", boundTypeId: null });
    expect((await send(w, `/v1/projects/${c}/files`, { key: apiKey })).status).toBe(404);
    // And the child's own session is as bound as its parent.
    const grandchild = await send(w, keysOf(a), { method: "POST", key: await session(apiKey), json: { bound: false } });
    expect(grandchild.status).toBe(403);

    const typed = await send(w, keysOf(a), { method: "POST", key: await session(plain.typedA), json: { name: "typed child" } });
    expect(((await typed.json()) as { key: Json }).key).toMatchObject({ projectId: a, tier: "standard", boundTypeId: "ent_form" });
  });

  it("a bound session lists and revokes only its project's keys", async () => {
    const s = await session(plain.boundA);
    const listed = (await (await send(w, keysOf(a), { key: s })).json()) as { keys: Json[] };
    expect(listed.keys.length).toBeGreaterThan(0);
    expect(new Set(listed.keys.map((k) => k.projectId))).toEqual(new Set([a]));
    for (const other of [keyIds.boundC, keyIds.unbound]) {
      const res = await send(w, `${keysOf(a)}/${other}/revoke`, { method: "POST", key: s });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { status: 404, code: "not_found", message: "not found" } });
    }
    expect(await liveKeyIds()).toEqual(expect.arrayContaining([keyIds.boundC, keyIds.unbound]));
    // Its own project's key it may revoke.
    const own = (await createApiKey(w.app.deps.db, { userId: w.userIds.owner, projectId: a, name: "spare" })).key.keyId;
    expect((await send(w, `${keysOf(a)}/${own}/revoke`, { method: "POST", key: s })).status).toBe(200);
    expect(await liveKeyIds()).not.toContain(own);
  });

  it("an unbound session still lists every key of its user and mints unbound keys", async () => {
    const s = await session(plain.unbound);
    const listed = (await (await send(w, keysOf(a), { key: s })).json()) as { keys: Json[] };
    expect(listed.keys.map((k) => k.keyId)).toEqual(expect.arrayContaining([keyIds.boundC, keyIds.unbound, keyIds.boundA]));
    const minted = (await (await send(w, keysOf(a), { method: "POST", key: s, json: { bound: false } })).json()) as { key: Json };
    expect(minted.key.projectId).toBeNull();
  });

  it("a bound session ends only sessions of its project's keys", async () => {
    const s = await session(plain.boundA);
    const unboundSession = await session(plain.unbound);
    const cSession = await session(plain.boundC);
    for (const other of [unboundSession, cSession]) {
      const res = await send(w, "/v1/sessions/end", { method: "POST", key: s, json: { sessionToken: other } });
      expect(await res.json()).toEqual({ ended: false });
    }
    expect((await send(w, `/v1/projects/${c}/category-proposals`, { key: cSession })).status).toBe(200);
    const sibling = await session(plain.boundA);
    expect(await (await send(w, "/v1/sessions/end", { method: "POST", key: s, json: { sessionToken: sibling } })).json()).toEqual({ ended: true });
    expect(await (await send(w, "/v1/sessions/end", { method: "POST", key: s, json: { sessionToken: s } })).json()).toEqual({ ended: true });
  });

  it("the console signed in with a bound key lists, mints and revokes inside its project only", async () => {
    const browser = new Client(w);
    expect((await browser.signIn(plain.boundA)).status).toBe(303);
    const page = (await browser.get(`/p/${a}/keys`)).text;
    expect(page).not.toContain('id="key-bound"');
    expect(page).toContain('<input type="hidden" name="bound" value="on"');
    expect(page).not.toContain(keyIds.boundC);
    expect(page).not.toContain(keyIds.unbound);

    const minted = await browser.post(`/p/${a}/keys`, { csrf: csrfOf(page), name: "from console", bound: "on" });
    expect(minted.res.status).toBe(201);
    const apiKey = /<input id="new-key" [^>]*value="(pks_[0-9A-Za-z]{49})"/.exec(minted.text)![1]!;
    expect((await send(w, `/v1/projects/${c}/files`, { key: apiKey })).status).toBe(404);

    // The box left unticked (a forged form): refused, nothing minted.
    const before = await liveKeyIds();
    const forged = await browser.post(`/p/${a}/keys`, { csrf: csrfOf(page), name: "escape" });
    expect(forged.res.status).toBe(403);
    expect(await liveKeyIds()).toEqual(before);

    for (const other of [keyIds.boundC, keyIds.unbound]) {
      const res = await browser.post(`/p/${a}/keys/${other}/revoke`, { csrf: csrfOf(page) });
      expect(res.res.status).toBe(404);
    }
    expect(await liveKeyIds()).toEqual(expect.arrayContaining([keyIds.boundC, keyIds.unbound]));
    expect((await browser.get(`/p/${c}/keys`)).res.status).toBe(404);
  });
});
