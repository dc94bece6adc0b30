/**
 * Refused credentials are rate-limited per peer address, over a real socket
 * (the address is the one Node's server saw): past the limit a bad key gets
 * 429 with Retry-After on REST, /mcp and the console's sign-in, while a good
 * key from the same address and a bad key from elsewhere are untouched.
 */
import type { AddressInfo } from "node:net";
import type { ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../src/transports/http/listen.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const LIMIT = 6;
const BAD = `pks_${"A".repeat(49)}`;

describe("refused keys counted per address", () => {
  let w: TestWorld;
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: String(LIMIT) } });
    server = await listen(w.app.http.fetch, "127.0.0.1", 0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await w.close();
  });

  const get = (path: string, key: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, host: "127.0.0.1:8787" } });

  it("past the limit a bad key is 429 with Retry-After, everywhere; a good key is not held back", async () => {
    const files = `/v1/projects/${w.projectId}/files`;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await get(files, BAD)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    const over = await get(files, BAD);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await over.json()).toEqual({ error: { status: 429, code: "rate_limited", message: "rate limit exceeded" } });
    const mcp = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${BAD}`, host: "127.0.0.1:8787", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(429);
    expect((await get(files, w.keys.viewer)).status).toBe(200);
  });

  it("a bad key through the app with no socket (no address) stays 401", async () => {
    const res = await w.app.http.request(`http://127.0.0.1:8787/v1/projects/${w.projectId}/files`, {
      headers: { authorization: `Bearer ${BAD}`, host: "127.0.0.1:8787" },
    });
    expect(res.status).toBe(401);
  });
});
