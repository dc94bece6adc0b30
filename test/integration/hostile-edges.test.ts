import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../src/transports/http/listen.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

const ACCEPT = { accept: "application/json, text/event-stream" };

describe("edges of the wire: paths, schemes, body and header limits", () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
  });
  afterAll(async () => w.close());

  it("refuses two paths with lone surrogates instead of storing both under one file id", async () => {
    const { res, body } = await ingest(w, [fileEntry("\ud800a.md", "# A\n"), fileEntry("\udc00a.md", "# B\n")]);
    expect(res.status).toBe(200);
    expect(body.accepted).toEqual([]);
    expect(body.refused.map((r) => r.reason)).toEqual(["path is not valid Unicode", "path is not valid Unicode"]);
  });

  it("refuses paths under .git/ and .pks/, drive letters and invisible format characters, with reasons", async () => {
    const paths = [".git/config", "a/.pks/pks.db", "C:x", "C:/x", "notes\u202Etxt.md", "zero\u200Bwidth.md"];
    const { body } = await ingest(w, paths.map((p) => fileEntry(p, "text\n")));
    expect(body.accepted).toEqual([]);
    expect(Object.fromEntries(body.refused.map((r) => [r.path, r.reason]))).toEqual({
      ".git/config": "path is inside .git/, which is never read",
      "a/.pks/pks.db": "path is inside .pks/, which is never read",
      "C:x": "path starts with a drive letter",
      "C:/x": "path starts with a drive letter",
      "notes\u202Etxt.md": "path contains an invisible format character (U+202E)",
      "zero\u200Bwidth.md": "path contains an invisible format character (U+200B)",
    });
  });

  it("reads a path prefix with astral characters (SQLite counts code points, not UTF-16 units)", async () => {
    const { body } = await ingest(w, [fileEntry("emoji😀/a.md", "# A\n"), fileEntry("emoji😀b.md", "# B\n")]);
    expect(body.accepted).toHaveLength(2);
    const res = await send(w, `/v1/projects/${w.projectId}/files?path=${encodeURIComponent("emoji😀/")}`, { key: w.keys.viewer });
    expect(((await res.json()) as Array<{ path: string }>).map((f) => f.path)).toEqual(["emoji😀/a.md"]);
  });

  it("takes the bearer scheme in any case (RFC 9110)", async () => {
    for (const scheme of ["bearer", "BEARER", "Bearer", "bEaReR"]) {
      const res = await send(w, `/v1/projects/${w.projectId}/files`, { headers: { authorization: `${scheme} ${w.keys.viewer}` } });
      expect(res.status, scheme).toBe(200);
    }
  });

  it("limits every MCP POST to 1 MiB, inside a session too, with the JSON envelope's 400", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const opened = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, project: w.projectId, headers: ACCEPT, json: init });
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.text();
    const headers = { ...ACCEPT, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const big = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_echo", arguments: { text: "x".repeat(1_100_000) } } };
    const res = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: big });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { status: 400, code: "invalid_request_body", message: "invalid request body" } });
    const small = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "test_echo", arguments: { text: "ok" } } };
    expect((await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers, json: small })).status).toBe(200);
  });

  it("answers a request line over Node's header limit with the JSON envelope, not a bare 431", async () => {
    const server = await listen(w.app.http.fetch, "127.0.0.1", 0);
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: `/v1/projects/${w.projectId}/files?path=${"a".repeat(40_000)}`, headers: { authorization: `Bearer ${w.keys.viewer}` } }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString("utf8")));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
        });
        req.on("error", reject);
        req.end();
      });
      expect(answer.status).toBe(431);
      expect(answer.type).toBe("application/json");
      expect(JSON.parse(answer.body)).toEqual({ error: { status: 431, code: "headers_too_large", message: "request headers too large" } });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
