import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookupAddress } from "node:dns";
import { AppError } from "../../../src/errors.js";
import { parseAllowList } from "../../../src/fetch/allow-list.js";
import { fetchDocument } from "../../../src/fetch/fetch-document.js";
import type { FetchOptions } from "../../../src/fetch/fetch-document.js";

/** A loopback server that counts what reaches it. */
interface TestServer {
  port: number;
  base: string;
  requests: Array<{ url: string; host: string | undefined }>;
  close(): Promise<void>;
}

async function startServer(handler: (req: IncomingMessage, res: ServerResponse, server: TestServer) => void): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  const state = {} as TestServer;
  const server: Server = createServer((req, res) => {
    requests.push({ url: req.url ?? "", host: req.headers.host });
    handler(req, res, state);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(state, {
    port,
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
  return state;
}

/** The AppError a fetch failed with. */
async function failure(url: string, options: FetchOptions): Promise<{ code: string; message: string }> {
  try {
    await fetchDocument(url, options);
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error(`fetching ${url} succeeded`);
}

const MARKDOWN = "# Release notes\n\nThe fetcher pins the address it checked.\n";

describe("fetching a document", () => {
  let site: TestServer;
  let other: TestServer;
  let silent: TestServer;
  beforeAll(async () => {
    other = await startServer((_req, res) => res.end("other"));
    silent = await startServer(() => undefined);
    site = await startServer((req, res, self) => {
      const url = new URL(req.url ?? "/", self.base);
      const hops = Number(url.searchParams.get("hops") ?? 0);
      if (url.pathname === "/doc.md") {
        res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" });
        res.end(MARKDOWN);
      } else if (url.pathname === "/chain") {
        res.writeHead(302, { location: hops > 0 ? `/chain?hops=${hops - 1}` : "/doc.md" });
        res.end();
      } else if (url.pathname === "/to-other") {
        res.writeHead(301, { location: `${other.base}/secret` });
        res.end();
      } else if (url.pathname === "/to-file") {
        res.writeHead(302, { location: "file:///etc/passwd" });
        res.end();
      } else if (url.pathname === "/to-metadata") {
        res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" });
        res.end();
      } else if (url.pathname === "/declared-big") {
        res.writeHead(200, { "content-length": "2000" });
        res.end();
      } else if (url.pathname === "/streamed-big") {
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 20; i++) res.write("x".repeat(100));
        res.end();
      } else if (url.pathname === "/gzip") {
        res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/markdown" });
        res.end(gzipSync(MARKDOWN));
      } else if (url.pathname === "/gzip-bomb") {
        res.writeHead(200, { "content-encoding": "gzip" });
        res.end(gzipSync(Buffer.alloc(100_000)));
      } else {
        res.writeHead(404, "Not Found");
        res.end();
      }
    });
  });
  afterAll(async () => {
    await Promise.all([site.close(), other.close(), silent.close()]);
  });

  const allowSite = () => ({ allow: parseAllowList([`127.0.0.1:${site.port}`]), maxBytes: 1000 });

  it("refuses loopback in every spelling, link-local, and hosts resolving to them, before any request is made", async () => {
    const options: FetchOptions = { allow: parseAllowList([]) };
    const p = site.port;
    const loopback = (shown: string) => `refused to fetch ${shown}: 127.0.0.1 is a loopback address (set PKS_FETCH_ALLOW to allow it)`;
    expect(await failure(`http://127.0.0.1:${p}/doc.md`, options)).toEqual({ code: "fetch_refused", message: loopback(`http://127.0.0.1:${p}/doc.md`) });
    // Decimal, octal, hex and short forms: WHATWG URL parsing turns each into 127.0.0.1 first.
    for (const host of ["2130706433", "0177.0.0.1", "0x7f.1", "127.1", "0x7f000001", "%31%32%37.0.0.1"]) {
      expect(await failure(`http://${host}:${p}/doc.md`, options), host).toEqual({ code: "fetch_refused", message: loopback(`http://127.0.0.1:${p}/doc.md`) });
    }
    expect((await failure(`http://[::ffff:127.0.0.1]:${p}/`, options)).message).toBe(
      `refused to fetch http://[::ffff:7f00:1]:${p}/: ::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback address (set PKS_FETCH_ALLOW to allow it)`,
    );
    expect((await failure(`http://[::127.0.0.1]:${p}/`, options)).message).toContain("is an IPv4-compatible address of 127.0.0.1, a loopback address");
    expect((await failure(`http://[::1]:${p}/`, options)).message).toContain("::1 is a loopback address");
    expect((await failure(`http://0:${p}/`, options)).message).toContain("0.0.0.0 is an unspecified address");
    expect((await failure("http://169.254.169.254/latest/meta-data/", options)).message).toBe(
      "refused to fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address (the cloud metadata service) (set PKS_FETCH_ALLOW to allow it)",
    );
    const localhost = await failure(`http://localhost:${p}/doc.md`, options);
    expect(localhost.code).toBe("fetch_refused");
    expect(localhost.message).toMatch(new RegExp(`^refused to fetch http://localhost:${p}/doc.md: localhost resolves to (127\\.0\\.0\\.1|::1), and .* is a loopback address`));
    expect(site.requests).toEqual([]);
  });

  it("refuses a name when any of its addresses is not public, since the socket could pick that one", async () => {
    const resolve = async (host: string): Promise<LookupAddress[]> =>
      host === "mixed.example.test" ? [{ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 }] : [{ address: "fd00::5", family: 6 }];
    const options: FetchOptions = { allow: parseAllowList([]), resolve };
    expect((await failure("https://mixed.example.test/a", options)).message).toBe(
      "refused to fetch https://mixed.example.test/a: mixed.example.test resolves to 10.0.0.7, and 10.0.0.7 is a private address (set PKS_FETCH_ALLOW to allow it)",
    );
    expect((await failure("https://v6.example.test/a", options)).message).toContain("v6.example.test resolves to fd00::5, and fd00::5 is a unique-local address");
  });

  it("refuses every scheme but http and https, credentials in the URL, and text that is no URL", async () => {
    const options: FetchOptions = { allow: parseAllowList(["127.0.0.1"]) };
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "data:text/plain,hi", "javascript:alert(1)", "gopher://127.0.0.1:70/", "ws://127.0.0.1/"]) {
      expect(await failure(url, options), url).toEqual({ code: "unsupported_url_scheme", message: "only http and https URLs can be fetched" });
    }
    expect(await failure(`http://user:secret@127.0.0.1:${site.port}/doc.md`, options)).toEqual({
      code: "fetch_refused",
      message: `refused to fetch http://127.0.0.1:${site.port}/doc.md: the URL carries a user name or password, which pks never sends`,
    });
    expect(await failure("http://exa mple.com/", options)).toEqual({ code: "fetch_refused", message: "refused to fetch http://exa mple.com/: it is not a valid URL" });
    expect(site.requests).toEqual([]);
  });

  it("fetches from an allowed address, with the media type and the final URL", async () => {
    const doc = await fetchDocument(`${site.base}/doc.md#section`, allowSite());
    expect(Buffer.from(doc.bytes).toString()).toBe(MARKDOWN);
    expect(doc.contentType).toBe("text/markdown");
    expect(doc.finalUrl).toBe(`${site.base}/doc.md`);
  });

  it("an allow entry for one port does not open the others", async () => {
    const message = (await failure(`${other.base}/`, allowSite())).message;
    expect(message).toBe(`refused to fetch ${other.base}/: 127.0.0.1 is a loopback address (set PKS_FETCH_ALLOW to allow it)`);
  });

  it("connects to the address it checked: the name is resolved once per hop and never again by the socket", async () => {
    let calls = 0;
    // A rebinding resolver: checked once it says loopback (allowed here); a second lookup would say something else.
    const resolve = async (): Promise<LookupAddress[]> => (calls++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "192.0.2.1", family: 4 }]);
    const before = site.requests.length;
    const doc = await fetchDocument(`http://docs.example.test:${site.port}/doc.md`, { ...allowSite(), resolve });
    expect(Buffer.from(doc.bytes).toString()).toBe(MARKDOWN);
    expect(calls).toBe(1);
    expect(site.requests.slice(before)).toEqual([{ url: "/doc.md", host: `docs.example.test:${site.port}` }]);
  });

  it("follows up to five redirects and fails the sixth", async () => {
    const five = await fetchDocument(`${site.base}/chain?hops=4`, allowSite());
    expect(five.finalUrl).toBe(`${site.base}/doc.md`);
    expect(await failure(`${site.base}/chain?hops=5`, allowSite())).toEqual({ code: "too_many_redirects", message: "too many redirects (more than 5)" });
  });

  it("checks every redirect target like the first URL: no request reaches a refused one", async () => {
    expect(await failure(`${site.base}/to-other`, allowSite())).toEqual({
      code: "fetch_refused",
      message: `refused to fetch ${other.base}/secret (redirected from ${site.base}/to-other): 127.0.0.1 is a loopback address (set PKS_FETCH_ALLOW to allow it)`,
    });
    expect(other.requests).toEqual([]);
    expect((await failure(`${site.base}/to-metadata`, allowSite())).message).toContain("169.254.169.254 is a link-local address");
    expect(await failure(`${site.base}/to-file`, allowSite())).toEqual({
      code: "unsupported_url_scheme",
      message: `only http and https URLs can be fetched (redirected from ${site.base}/to-file)`,
    });
  });

  it("caps the body: a declared length past it fails unread, a streamed or decompressed body past it is cut off", async () => {
    const tooLarge = { code: "document_too_large", message: "the document is larger than 1000 bytes" };
    expect(await failure(`${site.base}/declared-big`, allowSite())).toEqual(tooLarge);
    expect(await failure(`${site.base}/streamed-big`, allowSite())).toEqual(tooLarge);
    expect(await failure(`${site.base}/gzip-bomb`, allowSite())).toEqual(tooLarge);
    const gz = await fetchDocument(`${site.base}/gzip`, allowSite());
    expect(Buffer.from(gz.bytes).toString()).toBe(MARKDOWN);
  });

  it("says the 24 MiB cap in MiB", async () => {
    const big = await startServer((_req, res) => {
      res.writeHead(200, { "content-length": String(25_165_825) });
      res.end();
    });
    try {
      expect(await failure(`${big.base}/`, { allow: parseAllowList([`127.0.0.1:${big.port}`]) })).toEqual({
        code: "document_too_large",
        message: "the document is larger than 24 MiB",
      });
    } finally {
      await big.close();
    }
  });

  it("fails a non-2xx answer, a refused connection and a server that never answers, each with its reason", async () => {
    expect(await failure(`${site.base}/missing`, allowSite())).toEqual({ code: "fetch_failed", message: `fetching ${site.base}/missing failed: HTTP 404 Not Found` });
    const closed = await startServer(() => undefined);
    const closedPort = closed.port;
    await closed.close();
    expect(await failure(`http://127.0.0.1:${closedPort}/`, { allow: parseAllowList(["127.0.0.1"]) })).toEqual({
      code: "fetch_failed",
      message: `fetching http://127.0.0.1:${closedPort}/ failed: the connection was refused (ECONNREFUSED)`,
    });
    const started = Date.now();
    expect(await failure(`${silent.base}/`, { allow: parseAllowList(["127.0.0.1"]), timeoutMs: 300 })).toEqual({
      code: "fetch_failed",
      message: `fetching ${silent.base}/ timed out after 0.3 s`,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(silent.requests).toHaveLength(1);
  });

  it("stops when its caller's signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await failure(`${silent.base}/wait`, { allow: parseAllowList(["127.0.0.1"]), signal: controller.signal })).toEqual({
      code: "fetch_failed",
      message: `fetching ${silent.base}/wait was cancelled`,
    });
  });
});
