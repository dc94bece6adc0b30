/**
 * The console's pure pieces: an artifact body rendered as text with only
 * its citations as links, the schema form read back into fields, the CSRF
 * token and origin checks, and the frame's navigation.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY, csrfToken, sameOrigin, sameToken } from "../../../src/console/guard.js";
import { Layout, paths, spanText } from "../../../src/console/layout.js";
import { renderBody } from "../../../src/console/pages/artifacts.js";
import { fieldsFromForm } from "../../../src/console/pages/types.js";

const CELL = "cel_0123456789abcdefghijkl";
const OTHER = "cel_ZYXWVUTSRQPONMLKJIHGFE";
const html = (nodes: unknown) => (Array.isArray(nodes) ? nodes : [nodes]).map(String).join("");

describe("artifact bodies", () => {
  it("render headings, list items and paragraphs as text, with cited cells as links and nothing else", () => {
    const body = [
      "# Billing <b>summary</b>",
      "",
      `- Invoices go out monthly [${CELL}]`,
      `- See [docs](javascript:alert(1)) and <img src=x onerror=alert(2)> [${OTHER}]`,
      "",
      "A paragraph with \\[escaped\\] brackets & an ampersand.",
    ].join("\n");
    const out = html(renderBody(body, "prj_a/b", new Map([[CELL, true]])));
    expect(out).toBe(
      "<h2>Billing &lt;b&gt;summary&lt;/b&gt;</h2>" +
        `<ul><li>Invoices go out monthly <a class="cite" href="/p/prj_a%2Fb/cells/${CELL}">[${CELL}]</a></li>` +
        `<li>See [docs](javascript:alert(1)) and &lt;img src=x onerror=alert(2)&gt; [${OTHER}]</li></ul>` +
        "<p>A paragraph with [escaped] brackets &amp; an ampersand.</p>",
    );
  });

  it("a backslash-escaped citation stays text", () => {
    const out = html(renderBody(`not a cite \\[${CELL}]`, "p", new Map([[CELL, true]])));
    expect(out).toBe(`<p>not a cite [${CELL}]</p>`);
  });
});

describe("the schema form", () => {
  it("reads fields in their row order, trims, leaves out rows with no name, and reads the checkbox", () => {
    const form = new URLSearchParams([
      ["csrf", "t"],
      ["version", "3"],
      ["field.10.name", "late"],
      ["field.10.type", "date"],
      ["field.2.name", "  severity "],
      ["field.2.type", "text"],
      ["field.2.description", " how bad "],
      ["field.2.required", "on"],
      ["field.3.name", ""],
      ["field.3.type", "number"],
    ]);
    expect(fieldsFromForm(form)).toEqual([
      { name: "severity", type: "text", description: "how bad", required: true },
      { name: "late", type: "date", description: "", required: false },
    ]);
  });
});

describe("guard", () => {
  it("the CSRF token is fixed per session, differs between sessions and never holds the session token", () => {
    const a = csrfToken("pkss_a");
    expect(csrfToken("pkss_a")).toBe(a);
    expect(csrfToken("pkss_b")).not.toBe(a);
    expect(a).not.toContain("pkss_a");
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("tokens compare equal only when both are present and the same", () => {
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abc", "abd")).toBe(false);
    expect(sameToken("abc", "abcd")).toBe(false);
    expect(sameToken(undefined, "abc")).toBe(false);
    expect(sameToken("", "")).toBe(false);
  });

  it("a change is same-origin only with no Origin or this one, and no cross-site fetch mark", async () => {
    const app = new Hono();
    app.post("/x", (c) => c.text(String(sameOrigin(c))));
    const check = async (headers: Record<string, string>) => (await app.request("http://127.0.0.1:8787/x", { method: "POST", headers })).text();
    expect(await check({})).toBe("true");
    expect(await check({ origin: "http://127.0.0.1:8787" })).toBe("true");
    expect(await check({ origin: "http://127.0.0.1:9999" })).toBe("false");
    expect(await check({ origin: "https://127.0.0.1:8787" })).toBe("false");
    expect(await check({ origin: "http://127.0.0.1:8787/path" })).toBe("false");
    // Behind a TLS proxy the browser's origin is https while the request reaches us as http.
    expect(await check({ origin: "https://127.0.0.1:8787", "x-forwarded-proto": "https" })).toBe("true");
    expect(await check({ origin: "https://evil.example", "x-forwarded-proto": "https" })).toBe("false");
    // A no-referrer page's form posts with Origin: null; taken only with the browser's same-origin mark.
    expect(await check({ origin: "null" })).toBe("false");
    expect(await check({ origin: "null", "sec-fetch-site": "same-origin" })).toBe("true");
    expect(await check({ origin: "null", "sec-fetch-site": "cross-site" })).toBe("false");
    expect(await check({ "sec-fetch-site": "same-origin" })).toBe("true");
    expect(await check({ "sec-fetch-site": "same-site" })).toBe("false");
    expect(await check({ "sec-fetch-site": "cross-site" })).toBe("false");
  });

  it("the policy allows nothing but this origin's script, style and images, and no framing", () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives).toEqual({
      "default-src": "'none'",
      "script-src": "'self'",
      "style-src": "'self'",
      "img-src": "'self'",
      "connect-src": "'self'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
      "base-uri": "'none'",
    });
  });
});

describe("frame", () => {
  it("names the page once and links every section; links are built from encoded ids", () => {
    const out = String(Layout({ title: "Files <x>", project: { projectId: "prj_1", name: "<main>", level: "viewer" }, section: "files" }));
    expect(out.match(/<h1>/g)).toHaveLength(1);
    expect(out).toContain("<h1>Files &lt;x&gt;</h1>");
    expect(out).toContain("<title>Files &lt;x&gt; · pks</title>");
    expect(out).toContain("&lt;main&gt;");
    const names = [...out.matchAll(/<li><a href="[^"]*"(?: aria-current="page")?>([^<]+)<\/a><\/li>/g)].map((m) => m[1]);
    expect(names).toEqual(["Overview", "Files", "Search", "Proposed types", "Types", "Artifacts", "Keys", "Sign out"]);
    expect(out).toContain('<a href="/p/prj_1/files" aria-current="page">Files</a>');
    expect(paths.file("p 1", "fil/2", 12)).toBe("/p/p%201/files/fil%2F2#L12");
    expect(paths.cell("p", "javascript:alert(1)")).toBe("/p/p/cells/javascript%3Aalert(1)");
  });

  it("spans read as lines, pages or times", () => {
    expect(spanText({ lineStart: 3, lineEnd: 8 })).toBe("lines 3–8");
    expect(spanText({ lineStart: 3, lineEnd: 3 })).toBe("line 3");
    expect(spanText({ pdfPageStart: 2 })).toBe("page 2");
    expect(spanText({ audioStartMs: 72_000 })).toBe("at 1:12");
    expect(spanText({})).toBe("whole file");
  });
});
