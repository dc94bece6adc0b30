/**
 * The people's console over HTTP on a real app and a file database: sign-in
 * trades a key for a session cookie and never shows the key again; every
 * page renders for an editor and a viewer; a viewer gets no control and a
 * forged change is refused by the pipeline; changes without this origin's
 * CSRF token are refused and change nothing; every answer carries the
 * security headers; hostile document text stays text; a stale schema save
 * shows the conflict; generating an artifact queues a task the page follows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actions as productActions } from "../../tools/index.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { Client, csrfOf } from "../support/console-client.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const report = (title: string, extra = "") =>
  `# Incident: ${title}\n\n- Severity: high\n- Owner: Alice\n- Service: billing\n- Date: 2026-03-02\n${extra}\n${title} affected payments for a while.\n`;
const HOSTILE =
  "# Hostile <script>alert(1)</script> notes\n\n" +
  'The parser said <img src=x onerror="alert(2)"> and moved on.\n\n' +
  "See [the docs](javascript:alert(3)) for more, or <a href=\"javascript:alert(4)\">this</a>.\n\n" +
  "Quotes \" and ' and & ampersands stay text.\n";

/** Every href and src value on a page. */
function links(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]!);
}

const postForms = (html: string) => [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!);

describe("the people's console", () => {
  let dir: string;
  let w: TestWorld;
  let editor: Client;
  let viewer: Client;
  let p: string;
  let fileIds: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pks-console-"));
    w = await createTestWorld({ dbUrl: `file:${dir}/pks.db`, actions: productActions, env: { PKS_RATE_LIMIT: "100000" } });
    p = w.projectId;
    const { body } = await ingest(w, [
      fileEntry("incidents/payments.md", report("Payment outage")),
      fileEntry("incidents/login.md", report("Login failures")),
      fileEntry("incidents/search.md", report("Search latency")),
      fileEntry("notes/hostile.md", HOSTILE),
      fileEntry("README.md", "# Handbook\n\nThe billing service is owned by Alice. Invoices go out monthly.\n"),
      // A file the Markdown reader refuses (nesting past its cap): the overview lists it with its error.
      fileEntry("notes/<deep>.md", `${"> ".repeat(100)}too deep\n`),
    ]);
    fileIds = Object.fromEntries(body.accepted.map((a) => [a.path, a.fileId]));
    await w.app.worker.whenIdle();
    editor = new Client(w);
    viewer = new Client(w);
  });
  afterAll(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("signing in", () => {
    it("an unsigned visitor is sent to sign-in; a wrong key is refused with no cookie", async () => {
      const anon = new Client(w);
      const home = await anon.get("/");
      expect(home.res.status).toBe(303);
      expect(home.res.headers.get("location")).toBe("/sign-in");
      const page = await anon.get(`/p/${p}/files`);
      expect(page.res.status).toBe(303);
      const form = await anon.get("/sign-in");
      expect(form.res.status).toBe(200);
      expect(form.text).toContain('<label for="api-key">API key</label>');
      expect(form.text).toMatch(/<input id="api-key" name="apiKey" type="password"/);
      const wrong = await anon.post("/sign-in", { csrf: csrfOf(form.text), apiKey: "pks_notakey" });
      expect(wrong.res.status).toBe(401);
      expect(wrong.text).toContain("That key was not accepted");
      expect(anon.cookies.has("pks_console")).toBe(false);
    });

    it("trades the key for an HttpOnly, SameSite=Strict session cookie and lands on the one project", async () => {
      const res = await editor.signIn(w.keys.editor);
      expect(res.status).toBe(303);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith("pks_console="))!;
      expect(cookie).toMatch(/^pks_console=pkss_[0-9A-Za-z]{43}; /);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/; Secure/);
      const home = await editor.get("/");
      expect(home.res.headers.get("location")).toBe(`/p/${p}`);
      expect((await viewer.signIn(w.keys.viewer)).status).toBe(303);
    });

    it("over https the cookie is Secure and __Host- prefixed, and only that one opens a page", async () => {
      const c = new Client(w);
      const { text, res: page } = await c.request("/sign-in", { base: "https://127.0.0.1:8787" });
      expect(page.headers.getSetCookie().find((x) => x.startsWith("__Secure-pks_sign_in="))).toMatch(/; Secure/);
      const { res } = await c.request("/sign-in", { base: "https://127.0.0.1:8787", form: { csrf: csrfOf(text), apiKey: w.keys.editor } });
      expect(res.status).toBe(303);
      const cookie = res.headers.getSetCookie().find((x) => x.startsWith("__Host-pks_console="));
      expect(cookie).toMatch(/; Path=\/; /);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).not.toMatch(/Domain=/i);
      expect(res.headers.getSetCookie().some((x) => x.startsWith("pks_console="))).toBe(false);
      expect((await c.request(`/p/${p}`, { base: "https://127.0.0.1:8787" })).res.status).toBe(200);
      // A cookie without the prefix (which any subdomain or plain-http page could plant) opens nothing over https.
      const planted = new Client(w);
      planted.cookies.set("pks_console", c.cookies.get("__Host-pks_console")!);
      expect((await planted.request(`/p/${p}`, { base: "https://127.0.0.1:8787" })).res.headers.get("location")).toBe("/sign-in");
      // Behind a TLS-terminating proxy: the request arrives as http, the browser is on https.
      const proxied = new Client(w);
      const form = await proxied.get("/sign-in", { "x-forwarded-proto": "https" });
      const signed = await proxied.post("/sign-in", { csrf: csrfOf(form.text), apiKey: w.keys.editor }, { "x-forwarded-proto": "https", origin: "https://127.0.0.1:8787" });
      expect(signed.res.status).toBe(303);
      expect(signed.res.headers.getSetCookie().find((x) => x.startsWith("__Host-pks_console="))).toMatch(/; Secure/);
    });

    it("a sign-in without its form nonce, or from another origin, is refused and sets no session", async () => {
      const c = new Client(w);
      const { text } = await c.get("/sign-in");
      const noNonce = await c.post("/sign-in", { apiKey: w.keys.editor });
      expect(noNonce.res.status).toBe(403);
      const foreign = await c.post("/sign-in", { csrf: csrfOf(text), apiKey: w.keys.editor }, { origin: "https://evil.example" });
      expect(foreign.res.status).toBe(403);
      const crossSite = await c.post("/sign-in", { csrf: csrfOf(text), apiKey: w.keys.editor }, { "sec-fetch-site": "cross-site" });
      expect(crossSite.res.status).toBe(403);
      expect(c.cookies.has("pks_console")).toBe(false);
    });
  });

  describe("pages", () => {
    const pages = () => [
      `/p/${p}`,
      `/p/${p}/files`,
      `/p/${p}/files/${fileIds["incidents/payments.md"]}`,
      `/p/${p}/search`,
      `/p/${p}/search?q=${encodeURIComponent("Who owns the billing service?")}&budget=2000`,
      `/p/${p}/proposals`,
      `/p/${p}/types`,
      `/p/${p}/artifacts`,
      `/p/${p}/keys`,
      "/projects",
      "/sign-out",
    ];

    it("every page renders 200 for an editor and a viewer, with one h1 and the navigation", async () => {
      for (const client of [editor, viewer]) {
        for (const path of pages()) {
          const { res, text } = await client.get(path);
          expect(`${path} ${res.status}`).toBe(`${path} 200`);
          expect(res.headers.get("content-type")).toMatch(/^text\/html; charset=UTF-8/i);
          expect(text.startsWith("<!DOCTYPE html>")).toBe(true);
          expect(text.match(/<h1>/g), path).toHaveLength(1);
          expect(text).toContain(">Sign out</a>");
        }
      }
      const { text } = await editor.get(`/p/${p}`);
      for (const name of ["Overview", "Files", "Search", "Proposed types", "Types", "Artifacts", "Keys", "Sign out"]) expect(text).toContain(`>${name}</a>`);
    });

    it("the overview shows the lease, counts and the corpus version; files list status, type and size", async () => {
      const overview = (await editor.get(`/p/${p}`)).text;
      expect(overview).toContain("<dt>Corpus version</dt><dd>1</dd>");
      expect(overview).toContain("<dt>Ready</dt><dd>5</dd>");
      expect(overview).toContain("<dt>Failed</dt><dd>1</dd>");
      expect(overview).toContain(`<td><a href="/p/${p}/files/${fileIds["notes/<deep>.md"]}">notes/&lt;deep&gt;.md</a></td><td>document nests deeper than 64 levels</td>`);
      expect(overview).toContain(`1 proposed type waiting: <a href="/p/${p}/proposals">review them under Proposed types</a>`);
      const files = (await editor.get(`/p/${p}/files`)).text;
      expect(files).toContain(`<h2><a href="/p/${p}/files?path=incidents%2F">incidents/</a></h2>`);
      expect(files).toContain(`<a href="/p/${p}/files/${fileIds["incidents/login.md"]}">login.md</a>`);
      expect(files).toContain('<span class="status ready">ready</span>');
      const filtered = (await editor.get(`/p/${p}/files?path=notes`)).text;
      expect(filtered).toContain("hostile.md");
      expect(filtered).not.toContain("login.md");
    });

    it("a file view anchors each line and links its cells; a cell view links back to its line", async () => {
      const file = (await editor.get(`/p/${p}/files/${fileIds["incidents/payments.md"]}`)).text;
      expect(file).toContain('<tr id="L3"><td class="ln"><a href="#L3">3</a></td><td><code>- Severity: high</code></td></tr>');
      const cellId = /href="\/p\/[^/]+\/cells\/(cel_[0-9A-Za-z]{22})"/.exec(file)![1]!;
      const cell = await editor.get(`/p/${p}/cells/${cellId}`);
      expect(cell.res.status).toBe(200);
      expect(cell.text).toMatch(new RegExp(`href="/p/${p}/files/${fileIds["incidents/payments.md"]}#L\\d+">incidents/payments.md:\\d+</a>`));
      expect(cell.text).toContain("Previous cell");
      expect((await editor.get(`/p/${p}/cells/cel_0000000000000000000000`)).res.status).toBe(404);
    });

    it("search packs rows that open their sources, and a schema gives the structured answer with citations", async () => {
      const schema = JSON.stringify({ type: "object", properties: { owner: { type: "string" } } });
      const { res, text } = await editor.get(`/p/${p}/search?q=${encodeURIComponent("Who owns the billing service?")}&budget=2000&schema=${encodeURIComponent(schema)}`);
      expect(res.status).toBe(200);
      expect(text).toMatch(new RegExp(`<a href="/p/${p}/files/${fileIds["README.md"]}#L\\d+">README.md, line`));
      expect(text).toContain("<h2 id=\"structured\">Structured answer</h2>");
      expect(text).toMatch(/<dt><code>\/owner<\/code><\/dt><dd><a href="\/p\/[^/]+\/cells\/cel_/);
      const bad = await editor.get(`/p/${p}/search?q=x&schema=${encodeURIComponent("{not json")}`);
      expect(bad.res.status).toBe(400);
      expect(bad.text).toContain("The answer schema is not valid JSON.");
    });

    it("another project's pages are 404, like an unknown one", async () => {
      expect((await editor.get(`/p/${w.otherProjectId}`)).res.status).toBe(404);
      expect((await editor.get("/p/prj_nope/files")).res.status).toBe(404);
    });

    it("the API still refuses Origin: null; only the console's own paths leave it to the console", async () => {
      const api = await send(w, `/v1/projects/${p}/files`, { key: w.keys.viewer, headers: { origin: "null", "sec-fetch-site": "same-origin" } });
      expect(api.status).toBe(403);
      const mcp = await send(w, "/mcp", { method: "POST", key: w.keys.viewer, headers: { origin: "null" }, json: {} });
      expect(mcp.status).toBe(403);
      const page = await editor.get(`/p/${p}`, { origin: "null" });
      expect(page.res.status).toBe(200);
      // The Host is judged on console paths too.
      const rebound = await w.app.http.request("http://evil.example/sign-in", { headers: { host: "evil.example" } });
      expect(rebound.status).toBe(403);
    });

    it("unknown API paths keep their JSON 404; the API still answers beside the console", async () => {
      const res = await send(w, "/v1/nothing-here");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { status: 404, code: "not_found", message: "not found" } });
      expect((await send(w, `/v1/projects/${p}/files`, { key: w.keys.viewer })).status).toBe(200);
    });
  });

  describe("headers and hostile content", () => {
    it("every console answer carries the CSP, nosniff and no-referrer headers", async () => {
      const answers = [
        await editor.get(`/p/${p}`),
        await editor.get("/assets/console.css"),
        await editor.get("/assets/console.js"),
        await editor.get("/"),
        await editor.get(`/p/${p}/nothing`),
        await new Client(w).get("/sign-in"),
        await editor.post(`/p/${p}/keys`, { name: "x" }),
      ];
      for (const { res } of answers) {
        expect(res.headers.get("content-security-policy"), res.url).toBe(CSP);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      }
      expect(answers[1]!.res.headers.get("content-type")).toBe("text/css; charset=utf-8");
      expect(answers[2]!.res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    });

    it("no page holds an inline script or style", async () => {
      for (const path of [`/p/${p}`, `/p/${p}/proposals`, `/p/${p}/artifacts`, "/sign-in"]) {
        const { text } = await editor.get(path);
        expect(text).not.toMatch(/<script(?![^>]*src="\/assets\/console\.js")/);
        expect(text).not.toMatch(/<style|\sstyle="/);
      }
    });

    it("a document of HTML, script and javascript: links renders as text on every page that shows it", async () => {
      const fileId = fileIds["notes/hostile.md"]!;
      const file = (await editor.get(`/p/${p}/files/${fileId}`)).text;
      const cellId = /href="\/p\/[^/]+\/cells\/(cel_[0-9A-Za-z]{22})"/.exec(file)![1]!;
      const shown = [
        file,
        (await editor.get(`/p/${p}/files?path=notes`)).text,
        (await editor.get(`/p/${p}/cells/${cellId}`)).text,
        (await editor.get(`/p/${p}/search?q=${encodeURIComponent("What did the parser say about the docs?")}`)).text,
      ];
      expect(file).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(file).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
      expect(file).toContain("[the docs](javascript:alert(3))");
      for (const html of shown) {
        expect(html).not.toMatch(/<script>|<img|<a href="javascript/i);
        for (const link of links(html)) expect(link.toLowerCase()).not.toContain("javascript:");
      }
    });
  });

  describe("one way in: viewers and forged changes", () => {
    it("a viewer sees no change control anywhere", async () => {
      const type = await typeId();
      for (const path of [`/p/${p}`, `/p/${p}/proposals`, `/p/${p}/types`, `/p/${p}/types/${type ?? "none"}`, `/p/${p}/artifacts`, `/p/${p}/keys`]) {
        const { text } = await viewer.get(path);
        expect(postForms(text), path).toEqual([]);
        for (const button of ["Confirm", "Reject", "Approve", "Save schema", "Generate", "Mint key", "Revoke"]) expect(text, path).not.toContain(`>${button}</button>`);
      }
    });

    it("a viewer's forged change, with a valid CSRF token, is refused by the pipeline and changes nothing", async () => {
      const proposal = await pendingProposal();
      const csrf = csrfOf((await viewer.get("/sign-out")).text);
      const confirm = await viewer.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf });
      expect(confirm.res.status).toBe(403);
      expect(confirm.text).toContain("editor access required");
      const generate = await viewer.post(`/p/${p}/artifacts/generate`, { csrf, purpose: "a summary" });
      expect(generate.res.status).toBe(403);
      expect(await taskCount()).toBe(0);
      expect(await proposalStatus(proposal)).toBe(0);
    });

    it("a change with no CSRF token, a wrong one, another origin or a cross-site fetch is 403 and nothing changes", async () => {
      const proposal = await pendingProposal();
      const csrf = csrfOf((await editor.get(`/p/${p}/proposals`)).text);
      const attempts = [
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, {}),
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf: "x".repeat(csrf.length) }),
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf: csrfOf((await viewer.get("/sign-out")).text) }),
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf }, { origin: "https://evil.example" }),
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf }, { "sec-fetch-site": "cross-site" }),
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf }, { origin: "null" }),
        await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf }, { origin: "null", "sec-fetch-site": "same-site" }),
        await editor.post(`/p/${p}/artifacts/generate`, { purpose: "a summary" }),
      ];
      for (const a of attempts) expect(a.res.status).toBe(403);
      expect(await proposalStatus(proposal)).toBe(0);
      expect(await taskCount()).toBe(0);
      // A JSON body is not a form: refused the same way.
      const json = await editor.request(`/p/${p}/proposals/${proposal}/confirm`, { method: "POST", headers: { "content-type": "application/json" } });
      expect(json.res.status).toBe(403);
      expect(await proposalStatus(proposal)).toBe(0);
    });
  });

  describe("typed knowledge", () => {
    it("a proposal shows its fields beside its three evidence sections, and Confirm makes the type", async () => {
      const proposal = await pendingProposal();
      const { text } = await editor.get(`/p/${p}/proposals`);
      expect(text).toContain("Incident");
      expect(text).toContain("<h3>Evidence (3 sections)</h3>");
      for (const path of ["incidents/payments.md", "incidents/login.md", "incidents/search.md"]) expect(text).toContain(`>${path}</a>`);
      expect(text).toContain("<td>severity</td>");
      expect(postForms(text)).toContain(`/p/${p}/proposals/${proposal}/confirm`);
      // As a browser posts it from a no-referrer page: Origin null, marked same-origin.
      const done = await editor.post(`/p/${p}/proposals/${proposal}/confirm`, { csrf: csrfOf(text) }, { origin: "null", "sec-fetch-site": "same-origin" });
      expect(done.res.status).toBe(303);
      expect(done.res.headers.get("location")).toBe(`/p/${p}/proposals?done=confirmed`);
      expect(await proposalStatus(proposal)).toBe(1);
      expect((await editor.get(done.res.headers.get("location")!)).text).toContain("Confirmed: the type is made.");
    });

    it("the type page lists members with their filled cells; a stale save shows the conflict and the version to start from", async () => {
      const type = (await typeId())!;
      const first = (await editor.get(`/p/${p}/types/${type}`)).text;
      const second = (await editor.get(`/p/${p}/types/${type}`)).text;
      expect(first).toContain("<h2 id=\"members\">Members (3)</h2>");
      const filled = new RegExp(`<a href="(/p/${p}/types/${type}/members/ent_[0-9A-Za-z]{22})">Open filled cell of Payment outage</a>`).exec(first)![1]!;
      const filledPage = await viewer.get(filled);
      expect(filledPage.res.status).toBe(200);
      expect(filledPage.text).toContain("<h1>Payment outage (Incident)</h1>");
      expect(filledPage.text).toMatch(/<th scope="row">severity<\/th><td>text<\/td><td>high <a href="\/p\/[^/]+\/cells\/cel_[0-9A-Za-z]{22}" aria-label="source 1 of severity">\[1\]<\/a><\/td>/);
      const source = /aria-label="source 1 of severity"/.test(filledPage.text) ? /<a href="([^"]+)" aria-label="source 1 of severity">/.exec(filledPage.text)![1]! : "";
      expect((await viewer.get(source)).res.status).toBe(200);
      // Each filled value links the cells it was read from.
      expect(first).toMatch(/high <a href="\/p\/[^/]+\/cells\/cel_[0-9A-Za-z]{22}" aria-label="source 1 of severity">\[1\]<\/a>/);
      expect(first).toContain("<th scope=\"col\">severity</th>");
      const version = Number(/name="version" value="(\d+)"/.exec(first)![1]);
      const form = (extra: Record<string, string>) => ({
        csrf: csrfOf(first),
        version: String(version),
        "field.1.name": "severity",
        "field.1.type": "text",
        "field.1.description": "how bad",
        "field.1.required": "on",
        ...extra,
      });
      const saved = await editor.post(`/p/${p}/types/${type}/schema`, form({ "field.2.name": "impact", "field.2.type": "text" }));
      expect(saved.res.status).toBe(303);
      expect(saved.res.headers.get("location")).toBe(`/p/${p}/types/${type}?saved=${version + 1}`);
      expect(csrfOf(second)).toBe(csrfOf(first));
      const stale = await editor.post(`/p/${p}/types/${type}/schema`, form({ "field.2.name": "region", "field.2.type": "text" }));
      expect(stale.res.status).toBe(409);
      expect(stale.text).toContain("changed since you opened it");
      expect(stale.text).toContain(`name="version" value="${version + 1}"`);
      expect(stale.text).toContain('value="impact"');
      expect(stale.text).toContain("Your edit (not saved)");
      const schema = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: p, json: { action: "type_schema", input: { entityId: type } } });
      const fields = ((await schema.json()) as { result: { categorySchema: { fields: Array<{ name: string }>; version: number } } }).result.categorySchema;
      expect(fields.version).toBe(version + 1);
      expect(fields.fields.map((f) => f.name)).toEqual(["severity", "impact"]);
      const badType = await editor.post(`/p/${p}/types/${type}/schema`, { ...form({}), version: String(version + 1), "field.1.type": "colour" });
      expect(badType.res.status).toBe(400);
      expect(badType.text).toContain("schema field &quot;severity&quot;: type &quot;colour&quot; is not one of");
    });
  });

  describe("schema changes", () => {
    it("a change reading proposed shows beside its evidence; a viewer cannot approve it, an editor's Approve makes it live", async () => {
      await ingest(w, [fileEntry("incidents/cache.md", report("Cache stampede", "- Root cause: expired keys\n"))]);
      await ingest(w, [fileEntry("incidents/dns.md", report("DNS failure", "- Root cause: a typo\n"))]);
      await w.app.worker.whenIdle();
      const type = (await typeId())!;
      const { text } = await editor.get(`/p/${p}/proposals`);
      expect(text).toContain(`Change to <a href="/p/${p}/types/${type}">Incident</a>`);
      expect(text).toContain("<caption>Fields the change adds</caption>");
      expect(text).toContain("<td>rootCause</td>");
      expect(postForms(text)).toEqual(expect.arrayContaining([`/p/${p}/types/${type}/schema/approve`, `/p/${p}/types/${type}/schema/reject`]));
      const seenByViewer = await viewer.get(`/p/${p}/proposals`);
      expect(seenByViewer.text).toContain("<td>rootCause</td>");
      expect(postForms(seenByViewer.text)).toEqual([]);
      const forged = await viewer.post(`/p/${p}/types/${type}/schema/approve`, { csrf: csrfOf((await viewer.get("/sign-out")).text) });
      expect(forged.res.status).toBe(403);
      const approved = await editor.post(`/p/${p}/types/${type}/schema/approve`, { csrf: csrfOf(text) });
      expect(approved.res.status).toBe(303);
      const page = (await editor.get(approved.res.headers.get("location")!)).text;
      expect(page).toMatch(/Schema change approved: it is live as version \d+\./);
      expect(page).toContain('value="rootCause"');
      expect((await editor.get(`/p/${p}/proposals`)).text).toContain("No schema change is waiting.");
      const again = await editor.post(`/p/${p}/types/${type}/schema/approve`, { csrf: csrfOf(text) });
      expect(again.res.status).toBe(404);
      expect(again.text).toContain("no pending schema proposal");
    });
  });

  describe("artifacts", () => {
    it("Generate queues a task whose page and JSON follow it; the artifact's citations open their cells", async () => {
      const csrf = csrfOf((await editor.get(`/p/${p}/artifacts`)).text);
      expect(await taskCount()).toBe(0);
      const started = await editor.post(`/p/${p}/artifacts/generate`, { csrf, purpose: "a summary of the incidents" });
      expect(started.res.status).toBe(303);
      const taskPath = started.res.headers.get("location")!;
      expect(taskPath).toMatch(new RegExp(`^/p/${p}/tasks/tsk_[0-9A-Za-z]{22}$`));
      expect(await taskCount()).toBe(1);
      let state = { finished: false, status: "" };
      for (let i = 0; i < 400 && !state.finished; i++) {
        const { res, text } = await editor.get(`${taskPath}/status`);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        state = JSON.parse(text) as typeof state;
        if (!state.finished) await new Promise((r) => setTimeout(r, 25));
      }
      expect(state.status).toBe("succeeded");
      const task = (await editor.get(taskPath)).text;
      const artifactPath = /href="(\/p\/[^/]+\/artifacts\/art_[0-9A-Za-z]{22})">Open the artifact/.exec(task)![1]!;
      const artifact = await editor.get(artifactPath);
      expect(artifact.res.status).toBe(200);
      const cites = [...artifact.text.matchAll(/<a class="cite" href="(\/p\/[^/]+\/cells\/cel_[0-9A-Za-z]{22})">/g)].map((m) => m[1]!);
      expect(cites.length).toBeGreaterThan(0);
      expect((await editor.get(cites[0]!)).res.status).toBe(200);
      expect(artifact.text).not.toContain("Stale:");
      expect((await viewer.get(`/p/${p}/artifacts`)).text).toContain(artifactPath);
      // Re-reading the cited files retires the cited cells: the artifact is marked stale, on its page and in the list.
      await ingest(w, ["payments", "login", "search", "cache", "dns"].map((name) => fileEntry(`incidents/${name}.md`, `# Retired ${name}\n\nNothing to see.\n`)));
      await ingest(w, [fileEntry("README.md", "# Handbook\n\nRewritten.\n")]);
      await w.app.worker.whenIdle();
      expect((await editor.get(artifactPath)).text).toContain("Stale: a cell it cites has changed or gone since it was built");
      expect((await editor.get(`/p/${p}/artifacts`)).text).toContain('<span class="stale">Stale</span>');
      // Another project's task id answers 404 on this project's page.
      expect((await editor.get(`/p/${p}/tasks/tsk_0000000000000000000000`)).res.status).toBe(404);
    });
  });

  describe("keys and signing out", () => {
    it("an owner mints a key (shown once), lists and revokes it; an editor gets no key controls", async () => {
      const owner = new Client(w);
      expect((await owner.signIn(w.keys.owner)).status).toBe(303);
      const keysPage = (await owner.get(`/p/${p}/keys`)).text;
      expect(keysPage).toContain('<label for="key-name">Key name</label>');
      const minted = await owner.post(`/p/${p}/keys`, { csrf: csrfOf(keysPage), name: "ci <runner>", bound: "on" });
      expect(minted.res.status).toBe(201);
      const plaintext = /<input id="new-key" [^>]*value="(pks_[0-9A-Za-z]{49})"/.exec(minted.text)![1]!;
      expect(minted.text).toContain("ci &lt;runner&gt;");
      expect((await send(w, `/v1/projects/${p}/files`, { key: plaintext })).status).toBe(200);
      const later = (await owner.get(`/p/${p}/keys`)).text;
      expect(later).not.toContain(plaintext);
      // The new key's row is the first (newest first); its form revokes it.
      const keyRow = later.slice(later.indexOf("ci &lt;runner&gt;"));
      const revokePath = /<form method="post" action="([^"]+\/revoke)"/.exec(keyRow)![1]!;
      const revoked = await owner.post(revokePath, { csrf: csrfOf(later) });
      expect(revoked.res.status).toBe(303);
      expect((await send(w, `/v1/projects/${p}/files`, { key: plaintext })).status).toBe(401);
      const editorKeys = (await editor.get(`/p/${p}/keys`)).text;
      expect(postForms(editorKeys)).toEqual([]);
      const forged = await editor.post(`/p/${p}/keys`, { csrf: csrfOf((await editor.get("/sign-out")).text), name: "x" });
      expect(forged.res.status).toBe(403);
      expect(forged.text).toContain("editor access required");
    });

    it("sign-out ends the session on the server: the old cookie no longer opens a page", async () => {
      const c = new Client(w);
      await c.signIn(w.keys.editor);
      const token = c.cookies.get("pks_console")!;
      const out = (await c.get("/sign-out")).text;
      const done = await c.post("/sign-out", { csrf: csrfOf(out) });
      expect(done.res.status).toBe(303);
      expect(c.cookies.has("pks_console")).toBe(false);
      const res = await send(w, `/v1/projects/${p}/category-proposals`, { key: token });
      expect(res.status).toBe(401);
      c.cookies.set("pks_console", token);
      expect((await c.get(`/p/${p}`)).res.headers.get("location")).toBe("/sign-in");
    });

    it("no answer the editor or viewer saw carries their API key, in a header or the body", () => {
      for (const [client, key] of [
        [editor, w.keys.editor],
        [viewer, w.keys.viewer],
      ] as const) {
        expect(client.seen.length).toBeGreaterThan(20);
        for (const s of client.seen) {
          expect(s.body.includes(key)).toBe(false);
          expect(s.headers.includes(key)).toBe(false);
        }
      }
    });
  });

  async function taskCount(): Promise<number> {
    return Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM tasks"))!.n);
  }
  async function pendingProposal(): Promise<string> {
    const row = await w.app.db.get<{ proposal_id: string }>("SELECT proposal_id FROM category_proposals WHERE name = 'Incident'");
    return row!.proposal_id;
  }
  async function proposalStatus(id: string): Promise<number> {
    return Number((await w.app.db.get<{ status: number }>("SELECT status FROM category_proposals WHERE proposal_id = ?", [id]))!.status);
  }
  async function typeId(): Promise<string | undefined> {
    const res = await send(w, `/v1/projects/${p}/entities?entityType=Category`, { key: w.keys.viewer });
    return ((await res.json()) as Array<{ entityId: string }>)[0]?.entityId;
  }
});
