import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../support/run-cli.js";
import { spawnPks } from "../support/spawn-pks.js";

/** Runs `pks ARGS` in-process and returns what it printed as JSON. */
async function pks<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  return JSON.parse(await runCli(...args)) as T;
}

describe("pks admin commands", () => {
  let root: string;
  let db: string[];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pks-cli-"));
    db = ["--root", root];
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("creates users, projects with parents, memberships, keys and sessions", async () => {
    const alice = await pks<{ userId: string }>("user", "create", "alice", ...db);
    expect(alice.userId).toMatch(/^usr_/);
    const parent = await pks<{ projectId: string }>("project", "create", "platform", "--owner", "alice", ...db);
    const child = await pks<{ projectId: string; parentId: string }>("project", "create", "web", "--parent", parent.projectId, ...db);
    expect(child.parentId).toBe(parent.projectId);
    await pks("user", "create", "bob", ...db);
    expect(await pks("member", "add", "--project", child.projectId, "--user", "bob", "--level", "viewer", ...db)).toMatchObject({ level: "viewer" });

    const key = await pks<{ keyId: string; apiKey: string; prefix: string }>("key", "create", "--user", "alice", "--project", parent.projectId, ...db);
    expect(key.apiKey).toMatch(/^pks_[0-9A-Za-z]{49}$/);
    expect(key.apiKey.startsWith(key.prefix)).toBe(true);
    const listed = await pks<Array<Record<string, unknown>>>("key", "list", "--user", "alice", ...db);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.apiKey);
    expect(listed[0]).not.toHaveProperty("hash");
    expect(await pks("key", "revoke", key.keyId, ...db)).toEqual({ keyId: key.keyId, revoked: true });
    expect(await pks("key", "revoke", key.keyId, ...db)).toEqual({ keyId: key.keyId, revoked: false });

    const session = await pks<{ sessionToken: string }>("session", "create", "--user", "alice", ...db);
    expect(session.sessionToken).toMatch(/^pkss_/);
  });

  it("pks call runs an action against the folder's project", async () => {
    await expect(pks("call", "no_such_action", "{}", ...db)).rejects.toMatchObject({ code: "unknown_action" });
  });
});

describe("pks serve (child process)", () => {
  it("prints the MCP URL, REST base, project and a first-run key, and answers initialize", async () => {
    const root = mkdtempSync(join(tmpdir(), "pks-serve-"));
    const child = spawnPks(["serve", "--root", root, "--port", "0"]);
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    await vi.waitFor(() => expect(out).toMatch(/shown this once/), { timeout: 20_000, interval: 50 });
    const mcpUrl = /MCP\s+(\S+)/.exec(out)![1]!;
    expect(/REST\s+(\S+)/.exec(out)![1]).toBe(mcpUrl.replace(/\/mcp$/, "/v1"));
    expect(out).toMatch(/project\s+prj_/);
    const key = /key\s+(pks_\S+)/.exec(out)![1]!;
    expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const res = await fetch(mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    await res.body?.cancel();
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));

    // The second run reuses the project and prints no new key.
    const again = spawnPks(["serve", "--root", root, "--port", "0"]);
    let out2 = "";
    again.stdout.on("data", (d: Buffer) => {
      out2 += d.toString();
    });
    await vi.waitFor(() => expect(out2).toMatch(/key\s+create one/), { timeout: 20_000, interval: 50 });
    expect(/project\s+(\S+)/.exec(out2)![1]).toBe(/project\s+(\S+)/.exec(out)![1]);
    again.kill("SIGTERM");
    await new Promise((r) => again.once("exit", r));
    rmSync(root, { recursive: true, force: true });
  });
});
